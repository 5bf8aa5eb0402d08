import { ApiError } from './api.js';

/**
 * A multipart upload with progress: fetch cannot report upload progress, XMLHttpRequest can. Resolves with
 * the JSON answer, rejects with the same {@link ApiError} every other call gives.
 */
export function uploadWithProgress<T>(apiKey: string, path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('x-api-key', apiKey);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload failed: the server cannot be reached.'));
    xhr.onload = () => {
      let body: { error?: { code: string; message: string; details?: unknown } } | undefined;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `The server answered ${xhr.status}.`, body?.error?.details ?? []));
    };
    xhr.send(form);
  });
}
