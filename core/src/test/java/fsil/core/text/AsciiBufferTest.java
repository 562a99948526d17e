package fsil.core.text;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AsciiBufferTest {

    private static final long[] EDGES = {0, 1, -1, 9, 10, 11, 99, 100, 101, 999_999_999, 1_000_000_000,
            Integer.MAX_VALUE, Integer.MIN_VALUE, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
            Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};

    @Test
    void longsAreWrittenAsLongToString() {
        AsciiBuffer b = new AsciiBuffer(1); // grows from the smallest buffer
        for (long v : EDGES) {
            assertEquals(Long.toString(v), b.clear().append(v).toString());
        }
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextLong() >> rnd.nextInt(64); // all magnitudes
            assertEquals(Long.toString(v), b.clear().append(v).toString());
            int w = (int) v;
            assertEquals(Integer.toString(w), b.clear().append(w).toString());
        }
    }

    @Test
    void numbersAroundEveryPowerOfTenAndTwoHaveTheirDigits() {
        // the digit count comes from the bit length and a table of powers of ten: check each boundary
        AsciiBuffer b = new AsciiBuffer(1);
        for (long p = 1, k = 0; k <= 18; k++, p *= 10) {
            for (long v : new long[]{p - 1, p, p + 1, -p, -(p - 1), -(p + 1)}) {
                assertEquals(Long.toString(v), b.clear().append(v).toString());
            }
        }
        for (int bit = 0; bit < 63; bit++) {
            for (long v : new long[]{(1L << bit) - 1, 1L << bit, (1L << bit) + 1}) {
                assertEquals(Long.toString(v), b.clear().append(v).toString());
                assertEquals(Long.toHexString(v), b.clear().appendHex(v).toString());
                assertEquals(Long.toHexString(-v), b.clear().appendHex(-v).toString());
            }
        }
        for (int digits = 1; digits <= 16; digits++) { // odd widths end on a single digit
            long v = 0x0123456789abcdefL;
            long low = digits == 16 ? v : v & ((1L << (4 * digits)) - 1);
            assertEquals(String.format("%0" + digits + "x", low), b.clear().appendHex(v, digits).toString());
        }
    }

    @Test
    void hexIsLongToHexStringOrZeroPaddedDigits() {
        AsciiBuffer b = new AsciiBuffer(1);
        SplittableRandom rnd = new SplittableRandom(8);
        for (int i = 0; i < 20_000; i++) {
            long v = i < EDGES.length ? EDGES[i] : rnd.nextLong() >>> rnd.nextInt(64);
            assertEquals(Long.toHexString(v), b.clear().appendHex(v).toString());
            assertEquals(String.format("%08x", v & 0xFFFFFFFFL), b.clear().appendHex(v, 8).toString());
        }
    }

    @Test
    void paddedDecimalsAndDoubles() {
        AsciiBuffer b = new AsciiBuffer(1);
        assertEquals("000000000", b.clear().appendPadded(0, 9).toString());
        assertEquals("000148818", b.clear().appendPadded(148_818, 9).toString());
        assertEquals("999999999", b.clear().appendPadded(999_999_999, 9).toString());
        assertEquals("1234567890", b.clear().appendPadded(1_234_567_890L, 9).toString(), "wider than the width");
        assertThrows(IllegalArgumentException.class, () -> b.appendPadded(-1, 3));
        SplittableRandom rnd = new SplittableRandom(9);
        double[] special = {0.0, -0.0, 1.0, 0.1, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 74 / 75.0};
        for (double v : special) {
            assertEquals(Double.toString(v), b.clear().append(v).toString());
        }
        for (int i = 0; i < 5_000; i++) {
            double v = Double.longBitsToDouble(rnd.nextLong());
            assertEquals(Double.toString(v), b.clear().append(v).toString());
        }
    }

    @Test
    void stringsAreUtf8AndCharsMustBeAscii() {
        AsciiBuffer b = new AsciiBuffer(1);
        String mixed = "ok,é→\uD83D\uDE00 tail";
        b.append("a").append(mixed).append(',').append(mixed.getBytes(StandardCharsets.UTF_8), 0, 2);
        byte[] expected = ("a" + mixed + ",ok").getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, b.toByteArray());
        assertEquals("a" + mixed + ",ok", b.toString());
        assertEquals(expected.length, b.length());
        assertThrows(IllegalArgumentException.class, () -> b.append('é'));
        assertEquals(expected.length, b.length(), "a rejected character leaves the text as it was");
    }
}
