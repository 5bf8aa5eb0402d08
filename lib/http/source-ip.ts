/** The caller's address as API Gateway saw it (IPv4-mapped IPv6 written as plain IPv4). */
export function sourceIp(event: { requestContext?: { http?: { sourceIp?: string } } }): string {
  const ip = event.requestContext?.http?.sourceIp ?? 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
