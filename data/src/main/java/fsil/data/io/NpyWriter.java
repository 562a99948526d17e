package fsil.data.io;

import fsil.api.FeatureMatrix;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes little-endian, C-order {@code .npy} files (format 1.0) atomically: float32 matrices, int32 vectors and
 * uint8 arrays. The header is padded with spaces so that the data starts at a multiple of 64 bytes, as numpy
 * does; numpy reads these files with {@code np.load}.
 */
public final class NpyWriter {

    private NpyWriter() {
    }

    /** Writes an n x d float32 matrix. */
    public static void writeFloat32(Path file, FeatureMatrix m) {
        float[] data = m.rawData();
        AtomicFiles.write(file, out -> {
            writeHeader(out, "<f4", new int[]{m.rows(), m.cols()});
            ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (float v : data) {
                if (buf.remaining() < 4) {
                    flush(buf, out);
                }
                buf.putFloat(v);
            }
            flush(buf, out);
        });
    }

    /** Writes an int32 vector. */
    public static void writeInt32(Path file, int[] values) {
        AtomicFiles.write(file, out -> {
            writeHeader(out, "<i4", new int[]{values.length});
            ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (int v : values) {
                if (buf.remaining() < 4) {
                    flush(buf, out);
                }
                buf.putInt(v);
            }
            flush(buf, out);
        });
    }

    /** Writes a uint8 array of the given shape (C order). */
    public static void writeUint8(Path file, byte[] values, int[] shape) {
        AtomicFiles.write(file, out -> {
            writeHeader(out, "|u1", shape);
            out.write(values);
        });
    }

    private static void flush(ByteBuffer buf, OutputStream out) throws IOException {
        out.write(buf.array(), 0, buf.position());
        buf.clear();
    }

    /** The version-1.0 header for the given descr and shape, padded to a multiple of 64 bytes. */
    static byte[] header(String descr, int[] shape) {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + NpyReader.shapeString(shape)
                + ", }";
        int unpadded = 10 + dict.length() + 1;
        int padded = (unpadded + 63) / 64 * 64;
        String text = dict + " ".repeat(padded - unpadded) + "\n";
        byte[] body = text.getBytes(StandardCharsets.ISO_8859_1);
        byte[] h = new byte[10 + body.length];
        System.arraycopy(NpyReader.MAGIC, 0, h, 0, 6);
        h[6] = 1;
        h[7] = 0;
        h[8] = (byte) (body.length & 0xFF);
        h[9] = (byte) (body.length >>> 8);
        System.arraycopy(body, 0, h, 10, body.length);
        return h;
    }

    private static void writeHeader(OutputStream out, String descr, int[] shape) throws IOException {
        out.write(header(descr, shape));
    }
}
