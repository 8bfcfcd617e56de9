// The one way the extension shows a notification. Messages carry text from outside (a code's title,
// a URL, an error's cause), and VS Code renders link syntax in them as links that run commands when
// clicked: every message goes through plainText here, so no message can forget it.
import * as vscode from 'vscode';
import { plainText } from '../api/plainText';

export function showErrorMessage<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(plainText(message), ...items);
}

export function showInformationMessage<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(plainText(message), ...items);
}
