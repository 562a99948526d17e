package fsil.data;

import fsil.api.ClassTable;
import fsil.api.LabeledData;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * {@link FeatureSet#fingerprint()}: SHA-256 over this byte layout (every integer a big-endian int32, every string
 * its UTF-8 byte count as an int32 followed by the bytes, every int array its length as an int32 followed by the
 * elements):
 * <ol>
 *   <li>the string {@value #VERSION};</li>
 *   <li>the backbone description (string);</li>
 *   <li>the class names (count, then each string), then the class groups (count, 0 when ungrouped, then each);</li>
 *   <li>the training set: rows n, columns d, the n x d features as big-endian IEEE 754 float32 bit patterns in
 *       row-major order, then the labels (int array);</li>
 *   <li>the test set, the same way;</li>
 *   <li>the splits: base, validation and novel classes (three int arrays), then 0 when there is no FSCIL split,
 *       or 1, its base classes (int array), the number of sessions and each session's sample indices (int
 *       array).</li>
 * </ol>
 */
public final class Fingerprints {
    /** Identifies the layout; changes whenever the layout does. */
    public static final String VERSION = "fsil-featureset-fingerprint-1";
    private static final int CHUNK = 1 << 14;

    private Fingerprints() {
    }

    /** The fingerprint of {@code fs} as 64 lower-case hex digits. */
    public static String of(FeatureSet fs) {
        Hasher h = new Hasher();
        h.string(VERSION);
        h.string(fs.backbone());
        ClassTable classes = fs.classes();
        h.strings(classes.names());
        h.strings(classes.groups());
        h.data(fs.train());
        h.data(fs.test());
        SplitSet s = fs.splits();
        h.ints(s.base());
        h.ints(s.validation());
        h.ints(s.novel());
        if (s.fscil().isEmpty()) {
            h.int32(0);
        } else {
            SplitSet.FscilSplit f = s.fscil().get();
            h.int32(1);
            h.ints(f.baseClasses());
            h.int32(f.sessionSamples().size());
            for (int[] session : f.sessionSamples()) {
                h.ints(session);
            }
        }
        return HexFormat.of().formatHex(h.md.digest());
    }

    /** Feeds the digest through one reusable big-endian buffer. */
    private static final class Hasher {
        final MessageDigest md;
        final ByteBuffer buf = ByteBuffer.allocate(4 * CHUNK).order(ByteOrder.BIG_ENDIAN);

        Hasher() {
            try {
                md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        void int32(int v) {
            buf.clear();
            buf.putInt(v);
            md.update(buf.array(), 0, 4);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            int32(b.length);
            md.update(b);
        }

        void strings(List<String> list) {
            int32(list.size());
            for (String s : list) {
                string(s);
            }
        }

        void ints(int[] a) {
            int32(a.length);
            for (int off = 0; off < a.length; off += CHUNK) {
                int len = Math.min(CHUNK, a.length - off);
                buf.clear();
                buf.asIntBuffer().put(a, off, len);
                md.update(buf.array(), 0, 4 * len);
            }
        }

        void floats(float[] a) {
            for (int off = 0; off < a.length; off += CHUNK) {
                int len = Math.min(CHUNK, a.length - off);
                buf.clear();
                buf.asFloatBuffer().put(a, off, len);
                md.update(buf.array(), 0, 4 * len);
            }
        }

        void data(LabeledData d) {
            int32(d.size());
            int32(d.dimension());
            floats(d.features().rawData());
            ints(d.labels());
        }
    }
}
