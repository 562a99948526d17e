package fsil.core.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that text is appended to as bytes: numbers and ASCII characters are written directly,
 * other strings as UTF-8. Meant for writers of many small records (result rows), where a StringBuilder's checks on
 * every appended character, and the String and byte[] copies of each record, cost more than the formatting itself
 * (a units.csv row took 0.8-1.0 us through a StringBuilder, hot in the caches).
 *
 * <p>Numbers come out exactly as {@link Long#toString}, {@link Integer#toString}, {@link Long#toHexString} and
 * {@link Double#toString} write them.
 */
public final class AsciiBuffer {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private byte[] bytes;
    private int length;

    public AsciiBuffer(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    /** Number of bytes written. */
    public int length() {
        return length;
    }

    /** The backing array: bytes 0 .. length() - 1 are the text (valid until the next append). */
    public byte[] array() {
        return bytes;
    }

    /** Forgets the text, keeping the array for reuse. */
    public AsciiBuffer clear() {
        length = 0;
        return this;
    }

    /** Appends an ASCII character; anything else is rejected, since it would need more than one byte. */
    public AsciiBuffer append(char c) {
        if (c >= 0x80) {
            throw new IllegalArgumentException("not an ASCII character: U+" + Integer.toHexString(c)
                    + "; append it as a String");
        }
        reserve(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Appends a string as UTF-8 (byte for char while it is ASCII, the usual case). */
    public AsciiBuffer append(String s) {
        int n = s.length();
        reserve(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return append(s.substring(i).getBytes(StandardCharsets.UTF_8));
            }
            bytes[length++] = (byte) c;
        }
        return this;
    }

    public AsciiBuffer append(byte[] b) {
        return append(b, 0, b.length);
    }

    public AsciiBuffer append(byte[] b, int offset, int count) {
        reserve(count);
        System.arraycopy(b, offset, bytes, length, count);
        length += count;
        return this;
    }

    public AsciiBuffer append(int v) {
        return append((long) v);
    }

    /** Decimal digits of {@code v}, as {@link Long#toString(long)}. */
    public AsciiBuffer append(long v) {
        if (v == Long.MIN_VALUE) {
            return append(LONG_MIN);
        }
        reserve(20);
        if (v < 0) {
            bytes[length++] = '-';
            v = -v;
        }
        int end = length + digits(v);
        int p = end;
        while (v >= 10) {
            long q = v / 10;
            bytes[--p] = (byte) ('0' + (v - 10 * q));
            v = q;
        }
        bytes[--p] = (byte) ('0' + v);
        length = end;
        return this;
    }

    /** {@code v} in decimal, zero-padded on the left to {@code width} digits (v >= 0). */
    public AsciiBuffer appendPadded(long v, int width) {
        if (v < 0) {
            throw new IllegalArgumentException("negative: " + v);
        }
        for (int pad = width - digits(v); pad > 0; pad--) {
            append('0');
        }
        return append(v);
    }

    /** As {@link Double#toString(double)}. */
    public AsciiBuffer append(double v) {
        return append(Double.toString(v));
    }

    /** Unsigned lower-case hex without leading zeros, as {@link Long#toHexString(long)}. */
    public AsciiBuffer appendHex(long v) {
        int shift = v == 0 ? 0 : (63 - Long.numberOfLeadingZeros(v)) & ~3;
        reserve(16);
        for (; shift >= 0; shift -= 4) {
            bytes[length++] = HEX[(int) (v >>> shift) & 0xF];
        }
        return this;
    }

    /** The lowest {@code digits} hex digits of {@code v}, zero-padded (what "%08x" gives for 8 and an int). */
    public AsciiBuffer appendHex(long v, int digits) {
        reserve(digits);
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
            bytes[length++] = HEX[(int) (v >>> shift) & 0xF];
        }
        return this;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    /** The text, decoded as UTF-8. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private static int digits(long v) {
        int n = 1;
        for (long limit = 10; n < 19 && v >= limit; limit *= 10) {
            n++;
        }
        return n;
    }

    private void reserve(int extra) {
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + extra));
        }
    }
}
