import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Minimal .npy (version 1.0, C order, little-endian float32 / int64) writer and reader for the benchmark. */
final class Npy {
    private Npy() {
    }

    record Array(int[] shape, float[] f32, long[] i64) {
    }

    static void writeF32(Path p, float[] data, int... shape) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(data);
        write(p, "<f4", shape, b.array());
    }

    static void writeI64(Path p, long[] data, int... shape) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 * data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(data);
        write(p, "<i8", shape, b.array());
    }

    private static void write(Path p, String descr, int[] shape, byte[] body) throws IOException {
        StringBuilder s = new StringBuilder("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (");
        for (int v : shape) {
            s.append(v).append(", ");
        }
        s.append("), }");
        int total = 10 + s.length() + 1;
        int pad = (64 - total % 64) % 64;
        s.append(" ".repeat(pad)).append('\n');
        byte[] header = s.toString().getBytes(StandardCharsets.US_ASCII);
        try (OutputStream o = Files.newOutputStream(p)) {
            o.write(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            o.write(header.length & 0xff);
            o.write(header.length >> 8);
            o.write(header);
            o.write(body);
        }
    }

    static Array read(Path p) throws IOException {
        byte[] all = Files.readAllBytes(p);
        int hlen = (all[8] & 0xff) | (all[9] & 0xff) << 8;
        String h = new String(all, 10, hlen, StandardCharsets.US_ASCII);
        String shapeText = h.substring(h.indexOf('(') + 1, h.indexOf(')'));
        int[] shape = Arrays.stream(shapeText.split(",")).map(String::trim).filter(x -> !x.isEmpty())
                .mapToInt(Integer::parseInt).toArray();
        int n = 1;
        for (int v : shape) {
            n *= v;
        }
        ByteBuffer b = ByteBuffer.wrap(all, 10 + hlen, all.length - 10 - hlen).order(ByteOrder.LITTLE_ENDIAN);
        if (h.contains("<f4")) {
            float[] f = new float[n];
            b.asFloatBuffer().get(f);
            return new Array(shape, f, null);
        }
        if (h.contains("<i8")) {
            long[] l = new long[n];
            b.asLongBuffer().get(l);
            return new Array(shape, null, l);
        }
        throw new IOException("unsupported dtype in " + p + ": " + h);
    }
}
