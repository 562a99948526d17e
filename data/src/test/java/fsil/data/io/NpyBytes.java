package fsil.data.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds .npy byte images by hand (any dtype, order, version) for reader tests. */
public final class NpyBytes {

    private NpyBytes() {
    }

    public static byte[] build(int major, String header, byte[] data) {
        byte[] h = header.getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x93);
        out.writeBytes("NUMPY".getBytes(StandardCharsets.ISO_8859_1));
        out.write(major);
        out.write(0);
        if (major == 1) {
            out.write(h.length & 0xFF);
            out.write(h.length >>> 8);
        } else {
            ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(h.length);
            out.writeBytes(b.array());
        }
        out.writeBytes(h);
        out.writeBytes(data);
        return out.toByteArray();
    }

    public static String header(String descr, boolean fortran, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape
                + ", }\n";
    }

    /** Values (as doubles) encoded with the dtype and byte order of descr, in the given storage order. */
    public static byte[] encode(String descr, double... values) {
        ByteOrder order = descr.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        int size = Integer.parseInt(descr.substring(2));
        ByteBuffer b = ByteBuffer.allocate(values.length * size).order(order);
        for (double v : values) {
            switch (descr.substring(1)) {
                case "f4" -> b.putFloat((float) v);
                case "f8" -> b.putDouble(v);
                case "i4" -> b.putInt((int) v);
                case "i8" -> b.putLong((long) v);
                case "u1" -> b.put((byte) v);
                default -> throw new IllegalArgumentException(descr);
            }
        }
        return b.array();
    }

    /** NumPy unicode elements ({@code <U5}, {@code >U3}): each value as UCS-4 code points, NUL-padded. */
    public static byte[] unicode(String descr, String... values) {
        ByteOrder order = descr.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        int chars = Integer.parseInt(descr.substring(2));
        ByteBuffer b = ByteBuffer.allocate(values.length * chars * 4).order(order);
        for (String v : values) {
            int[] cps = v.codePoints().toArray();
            for (int c = 0; c < chars; c++) {
                b.putInt(c < cps.length ? cps[c] : 0);
            }
        }
        return b.array();
    }

    /** A C-order .npy (format 1.0) of the given descr and shape holding {@code data}. */
    public static byte[] npy(String descr, String shape, byte[] data) {
        return build(1, header(descr, false, shape), data);
    }

    public static Path write(Path dir, String name, byte[] bytes) {
        try {
            Path p = dir.resolve(name);
            Files.write(p, bytes);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
