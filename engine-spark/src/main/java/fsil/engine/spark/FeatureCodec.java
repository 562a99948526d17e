package fsil.engine.spark;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A feature set as bytes, to broadcast it to executors: names, class table, train and test features (float32,
 * 4 bytes a value) with their labels, the committed splits. Exact: a decoded set holds the same bits.
 */
final class FeatureCodec {
    private static final int MAGIC = 0x46534c46; // "FSLF"
    private static final int VERSION = 1;

    private FeatureCodec() {
    }

    static byte[] encode(FeatureSet fs) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(
                (int) Math.min(Integer.MAX_VALUE - 64, 4L * (cells(fs.train()) + cells(fs.test())) + 4096));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(fs.dataset());
            out.writeUTF(fs.backbone());
            out.writeUTF(fs.key());
            strings(out, fs.classes().names());
            strings(out, fs.classes().groups());
            data(out, fs.train());
            data(out, fs.test());
            SplitSet s = fs.splits();
            ints(out, s.base());
            ints(out, s.validation());
            ints(out, s.novel());
            out.writeBoolean(s.fscil().isPresent());
            if (s.fscil().isPresent()) {
                ints(out, s.fscil().get().baseClasses());
                out.writeInt(s.fscil().get().sessionSamples().size());
                for (int[] session : s.fscil().get().sessionSamples()) {
                    ints(out, session);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: not expected
        }
        return bytes.toByteArray();
    }

    static FeatureSet decode(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            if (in.readInt() != MAGIC || in.readInt() != VERSION) {
                throw new IllegalArgumentException("not an fsil feature set of this version");
            }
            String dataset = in.readUTF();
            String backbone = in.readUTF();
            String key = in.readUTF();
            ClassTable classes = new ClassTable(strings(in), strings(in));
            LabeledData train = data(in);
            LabeledData test = data(in);
            int[] base = ints(in);
            int[] validation = ints(in);
            int[] novel = ints(in);
            Optional<SplitSet.FscilSplit> fscil = Optional.empty();
            if (in.readBoolean()) {
                int[] baseClasses = ints(in);
                int n = in.readInt();
                List<int[]> sessions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    sessions.add(ints(in));
                }
                fscil = Optional.of(new SplitSet.FscilSplit(baseClasses, sessions));
            }
            return new FeatureSet(dataset, backbone, key, classes, train, test,
                    new SplitSet(base, validation, novel, fscil));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long cells(LabeledData d) {
        return (long) d.size() * d.dimension();
    }

    private static void strings(DataOutputStream out, List<String> s) throws IOException {
        out.writeInt(s.size());
        for (String x : s) {
            out.writeUTF(x);
        }
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readUTF());
        }
        return out;
    }

    private static void ints(DataOutputStream out, int[] a) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.BIG_ENDIAN);
        b.asIntBuffer().put(a);
        out.writeInt(a.length);
        out.write(b.array());
    }

    private static int[] ints(DataInputStream in) throws IOException {
        int n = in.readInt();
        byte[] raw = in.readNBytes(4 * n);
        int[] a = new int[n];
        ByteBuffer.wrap(raw).order(ByteOrder.BIG_ENDIAN).asIntBuffer().get(a);
        return a;
    }

    private static void data(DataOutputStream out, LabeledData d) throws IOException {
        out.writeInt(d.size());
        out.writeInt(d.dimension());
        float[] x = d.features().rawData();
        int rowsPerChunk = Math.max(1, (1 << 20) / Math.max(1, d.dimension()));
        for (int r = 0; r < d.size(); r += rowsPerChunk) { // bounded buffers for large sets
            int rows = Math.min(rowsPerChunk, d.size() - r);
            ByteBuffer b = ByteBuffer.allocate(4 * rows * d.dimension()).order(ByteOrder.BIG_ENDIAN);
            b.asFloatBuffer().put(x, r * d.dimension(), rows * d.dimension());
            out.write(b.array());
        }
        ints(out, d.labels());
    }

    private static LabeledData data(DataInputStream in) throws IOException {
        int rows = in.readInt();
        int cols = in.readInt();
        float[] x = new float[Math.multiplyExact(rows, cols)];
        int rowsPerChunk = Math.max(1, (1 << 20) / Math.max(1, cols));
        for (int r = 0; r < rows; r += rowsPerChunk) {
            int n = Math.min(rowsPerChunk, rows - r);
            byte[] raw = in.readNBytes(4 * n * cols);
            ByteBuffer.wrap(raw).order(ByteOrder.BIG_ENDIAN).asFloatBuffer().get(x, r * cols, n * cols);
        }
        int[] labels = ints(in);
        return new LabeledData(FeatureMatrix.wrap(rows, cols, x), labels);
    }
}
