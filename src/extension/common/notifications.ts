// The one way the extension shows a notification. Messages carry text from outside (a code's title,
// a URL, an error's cause), and VS Code renders link syntax in them as links that run commands when
// clicked; a URL may carry a user name and password: every message goes through notificationText
// here, so no message can forget it.
import * as vscode from 'vscode';
import { withoutCredentials } from '../../core/errors';
import { plainText } from '../../core/plainText';

/** What a notification (or a progress notification's title) shows of `message`. */
export function notificationText(message: string): string {
  return plainText(withoutCredentials(message));
}

export function showErrorMessage<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(notificationText(message), ...items);
}

export function showInformationMessage<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(notificationText(message), ...items);
}

/** A modal question whose `detail` shows what it is about (e.g. what will be sent). */
export function showModal<T extends string>(message: string, detail: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(notificationText(message), { modal: true, detail: notificationText(detail) }, ...items);
}

/** A modal warning that asks before something that cannot be undone; resolves true only for `confirm`. */
export async function confirmModal(message: string, confirm: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(notificationText(message), { modal: true }, confirm)) === confirm;
}
