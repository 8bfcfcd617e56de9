// A contributor's requests to a writable reference service, over real HTTP: the write API as a
// client sends it, each answer returned as it came (status, headers, body).
import { request, type RawResponse } from './referenceService';

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

const XML = { 'Content-Type': 'application/xml' };

function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function postCode(url: string, token: string, title: string): Promise<RawResponse> {
  const body = `<?xml version="1.0" encoding="UTF-8"?><code><title>${escaped(title)}</title><language>Ruby</language><comment>Shorter?</comment><code>p 1\n</code><tag-list>durable</tag-list></code>`;
  return request(url, '/codes.xml', { method: 'POST', headers: { ...XML, ...bearer(token) }, body });
}

export function postRefactor(url: string, token: string, codeId: number): Promise<RawResponse> {
  const body = '<refactor><comment>Use puts</comment><code>puts 1\n</code></refactor>';
  return request(url, `/codes/${codeId}/refactors.xml`, { method: 'POST', headers: { ...XML, ...bearer(token) }, body });
}

export function rate(url: string, token: string, codeId: number, refactorId: number, value: number): Promise<RawResponse> {
  return request(url, `/codes/${codeId}/refactors/${refactorId}/rate.xml`, {
    method: 'POST',
    headers: { ...XML, ...bearer(token) },
    body: `<rating><value>${value}</value></rating>`,
  });
}

export function deleteCode(url: string, token: string, codeId: number): Promise<RawResponse> {
  return request(url, `/codes/${codeId}.xml`, { method: 'DELETE', headers: bearer(token) });
}
