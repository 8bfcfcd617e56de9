// A failure of the file system or of the network in words, for the one line a command prints,
// instead of the errno code and syscall Node puts in its message.

/** Why a file or folder could not be used, from its errno code; undefined for a code not worded here. */
export function fileProblem(code: string | undefined): string | undefined {
  switch (code) {
    case 'ENOENT':
      return 'there is no such file or folder';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EEXIST':
      return 'it exists already';
    default:
      return undefined;
  }
}

/** Why a server could not listen on `host`:`port`, from its errno code; undefined for a code not worded here. */
export function listenProblem(code: string | undefined, host: string, port: number): string | undefined {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${address} is in use by another program (another serve?): stop it, or give another --port`;
    case 'EACCES':
    case 'EPERM':
      return `${address} needs privileges this user lacks: give a --port above 1023`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine: give another --host`;
    default:
      return undefined;
  }
}
