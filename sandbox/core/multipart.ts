/** A multipart/form-data body (RFC 7578) split into its parts, bytes kept as they came. */
export interface FormPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** The parts of `body`, or null when the content type has no boundary or the body does not follow it. */
export function parseMultipart(body: unknown, contentType: string | undefined): FormPart[] | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!Buffer.isBuffer(body) || !boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === "--") return parts;
    const headerEnd = body.indexOf("\r\n\r\n", at);
    const next = body.indexOf(delimiter, headerEnd);
    if (headerEnd < 0 || next < 0) return null;
    const headers = body.subarray(at, headerEnd).toString("utf8");
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim() ?? null,
      // The part's data ends before the CRLF that precedes the next delimiter.
      data: body.subarray(headerEnd + 4, next - 2),
    });
    at = next;
  }
}
