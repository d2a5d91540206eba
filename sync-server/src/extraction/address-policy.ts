// Which IP addresses a fetched page may live at. Anything that is not plainly on the public internet
// (loopback, private, link-local, CGNAT, documentation, multicast, reserved...) is refused, so that a
// saved "article" can't be used to read the server's own network. IPv4-mapped IPv6 is judged by the
// IPv4 address inside it.
import { isIPv4, isIPv6 } from 'node:net';

type Ipv4Range = readonly [base: number, prefix: number];

const NON_PUBLIC_IPV4: readonly Ipv4Range[] = [
  [ipv4ToNumber('0.0.0.0'), 8], // "this network", unspecified
  [ipv4ToNumber('10.0.0.0'), 8], // private
  [ipv4ToNumber('100.64.0.0'), 10], // carrier-grade NAT
  [ipv4ToNumber('127.0.0.0'), 8], // loopback
  [ipv4ToNumber('169.254.0.0'), 16], // link-local, cloud metadata (169.254.169.254)
  [ipv4ToNumber('172.16.0.0'), 12], // private
  [ipv4ToNumber('192.0.0.0'), 24], // IETF protocol assignments
  [ipv4ToNumber('192.0.2.0'), 24], // documentation
  [ipv4ToNumber('192.88.99.0'), 24], // 6to4 relay anycast
  [ipv4ToNumber('192.168.0.0'), 16], // private
  [ipv4ToNumber('198.18.0.0'), 15], // benchmarking
  [ipv4ToNumber('198.51.100.0'), 24], // documentation
  [ipv4ToNumber('203.0.113.0'), 24], // documentation
  [ipv4ToNumber('224.0.0.0'), 4], // multicast
  [ipv4ToNumber('240.0.0.0'), 4], // reserved, broadcast
];

/** Inside global unicast 2000::/3, these prefixes are still not ordinary public hosts. */
const NON_PUBLIC_GLOBAL_IPV6: readonly (readonly [prefix: string, bits: number])[] = [
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, which embeds an arbitrary IPv4 address
  ['3fff::', 20], // documentation
];

/** True only for an address on the public internet. Accepts IPv4, IPv6, bracketed IPv6 and zone ids. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return isPublicIpv4(ipv4ToNumber(bare));
  if (!isIPv6(bare)) return false;
  const bytes = ipv6ToBytes(bare);
  const mappedIpv4 = embeddedMappedIpv4(bytes);
  if (mappedIpv4 != null) return isPublicIpv4(mappedIpv4);
  // Only global unicast (2000::/3) is public; this leaves out ::, ::1, NAT64, ULA, link-local, multicast.
  if ((bytes[0]! & 0xe0) !== 0x20) return false;
  return !NON_PUBLIC_GLOBAL_IPV6.some(([prefix, bits]) => sharesPrefix(bytes, ipv6ToBytes(prefix), bits));
}

function isPublicIpv4(value: number): boolean {
  return !NON_PUBLIC_IPV4.some(([base, prefix]) => value >>> (32 - prefix) === base >>> (32 - prefix));
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

/** ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated "compatible" form) both reach IPv4 hosts. */
function embeddedMappedIpv4(bytes: Uint8Array): number | null {
  const leadingZeros = bytes.subarray(0, 10).every((byte) => byte === 0);
  if (!leadingZeros) return null;
  const marker = (bytes[10]! << 8) | bytes[11]!;
  if (marker !== 0xffff && marker !== 0) return null;
  return ((bytes[12]! << 24) | (bytes[13]! << 16) | (bytes[14]! << 8) | bytes[15]!) >>> 0;
}

function ipv6ToBytes(address: string): Uint8Array {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4ToNumber(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function sharesPrefix(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 1) {
    const mask = 0x80 >> (bit % 8);
    const byteIndex = Math.floor(bit / 8);
    if ((bytes[byteIndex]! & mask) !== (prefix[byteIndex]! & mask)) return false;
  }
  return true;
}
