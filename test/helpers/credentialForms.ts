// URLs with a user name and password in the forms the URL parser reads as credentials, and a server
// that redirects to them: shared by the in-process and the command-line tests of masking.
import { startServer, type TestServer } from './testServer';

/** Each odd form, for a host `h`, with the password `s3cret` (and `p@ss` where the form is about it). */
export const FORMS = (h: string): string[] => [
  `http:ana:s3cret@${h}/codes/1.xml`,
  `http:\\\\ana:s3cret@${h}/codes/1.xml`,
  `HTTP:/ana:s3cret@${h}/codes/1.xml`,
  `http://ana:p@ss@s3cret@${h}/codes/1.xml`,
  `https://ana:s3cret@${h}/codes/1.xml`,
];
export const LEAKS = /s3cret|ana|p@ss/;
/**
 * The odd forms a redirect can take: relative to an http URL, `http:ana:…` and `HTTP:/ana:…` are
 * paths (no credentials at all), so these switch to https or use backslashes.
 */
export const REDIRECTS = (h: string): string[] => [
  `http:\\\\ana:s3cret@${h}/codes/1.xml`,
  `https:ana:s3cret@${h}/codes/1.xml`,
  `HTTPS:/ana:s3cret@${h}/codes/1.xml`,
  `http://ana:p@ss@s3cret@${h}/codes/1.xml`,
];

/** A list's page n redirects to a code on this server, in the odd form n - 2 (page 1 has no parameter). */
export async function startRedirectingServer(): Promise<TestServer> {
  const server: TestServer = await startServer((req, res) => {
    const form = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page')) - 2;
    if (!(form >= 0) || req.url?.startsWith('/codes/1.xml')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(302, { location: REDIRECTS(`127.0.0.1:${server.port}`)[form] }).end();
  });
  return server;
}
