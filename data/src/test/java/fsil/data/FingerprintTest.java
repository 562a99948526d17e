package fsil.data;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FeatureSet.fingerprint(): deterministic, sensitive to every part, and the documented byte layout. */
class FingerprintTest {

    private static FeatureSet small(float firstValue, int firstLabel, String firstName, int[] base) {
        LabeledData train = new LabeledData(FeatureMatrix.wrap(3, 2, new float[]{firstValue, 2, 3, 4, 5, 6}),
                new int[]{firstLabel, 1, 0});
        LabeledData test = new LabeledData(FeatureMatrix.wrap(1, 2, new float[]{-1, 0.5f}), new int[]{1});
        SplitSet splits = new SplitSet(base, new int[0], new int[]{1},
                Optional.of(new SplitSet.FscilSplit(base, List.of(new int[]{1, 2}))));
        return new FeatureSet("x", "identity", "x|identity", new ClassTable(List.of(firstName, "dog"), List.of()),
                train, test, splits);
    }

    private static FeatureSet small() {
        return small(1f, 0, "cat", new int[]{0});
    }

    @Test
    void sameDataSameHashAndEveryPartCounts() {
        String h = small().fingerprint();
        assertEquals(64, h.length());
        assertTrue(h.matches("[0-9a-f]{64}"));
        assertEquals(h, small().fingerprint());
        assertNotEquals(h, small(1.0000001f, 0, "cat", new int[]{0}).fingerprint(), "one feature value");
        assertNotEquals(h, small(1f, 1, "cat", new int[]{0}).fingerprint(), "one label");
        assertNotEquals(h, small(1f, 0, "Cat", new int[]{0}).fingerprint(), "one class name");
        assertNotEquals(h, small(1f, 0, "cat", new int[]{1}).fingerprint(), "the splits");
        FeatureSet s = small();
        FeatureSet otherBackbone = new FeatureSet(s.dataset(), "pretrained-mlp", s.key(), s.classes(), s.train(),
                s.test(), s.splits());
        assertNotEquals(h, otherBackbone.fingerprint(), "the backbone description");
        FeatureSet moved = new FeatureSet("dir:/elsewhere", s.backbone(), "other key", s.classes(), s.train(),
                s.test(), s.splits());
        assertEquals(h, moved.fingerprint(), "the name and key are not content");
        FeatureSet swapped = new FeatureSet(s.dataset(), s.backbone(), s.key(), s.classes(), s.test(), s.train(),
                s.splits());
        assertNotEquals(h, swapped.fingerprint(), "train and test are distinguished");
    }

    /** The documented layout, written out independently of Fingerprints. */
    @Test
    void followsTheDocumentedByteLayout() throws Exception {
        FeatureSet s = small();
        ByteBuffer b = ByteBuffer.allocate(1024);
        putString(b, "fsil-featureset-fingerprint-1");
        putString(b, "identity");
        b.putInt(2);
        putString(b, "cat");
        putString(b, "dog");
        b.putInt(0); // no groups
        b.putInt(3).putInt(2);
        for (float v : new float[]{1, 2, 3, 4, 5, 6}) {
            b.putFloat(v);
        }
        b.putInt(3).putInt(0).putInt(1).putInt(0);
        b.putInt(1).putInt(2).putFloat(-1).putFloat(0.5f);
        b.putInt(1).putInt(1);
        b.putInt(1).putInt(0); // base
        b.putInt(0); // validation
        b.putInt(1).putInt(1); // novel
        b.putInt(1); // fscil present
        b.putInt(1).putInt(0); // its base classes
        b.putInt(1); // one session
        b.putInt(2).putInt(1).putInt(2);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(b.array(), 0, b.position());
        assertEquals(HexFormat.of().formatHex(md.digest()), s.fingerprint());
    }

    private static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    @Test
    void largeFeatureSetsHashQuicklyAndChunkBoundariesDoNotMatter() {
        int n = 20_000;
        int d = 784;
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = (i % 977) / 977f;
        }
        int[] y = new int[n];
        LabeledData train = new LabeledData(FeatureMatrix.wrap(n, d, x), y);
        FeatureSet fs = new FeatureSet("big", "identity", "k", ClassTable.numbered(1), train, LabeledData.empty(d),
                new SplitSet(new int[0], new int[0], new int[]{0}, Optional.empty()));
        long t0 = System.nanoTime();
        String h = fs.fingerprint();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 5, "fingerprint of 20,000 x 784 took " + seconds + " s");
        x[x.length - 1] += 1; // the last value, in the last chunk
        assertNotEquals(h, fs.fingerprint());
    }

    @Test
    void digitsFingerprintIsPinned() {
        FeatureSet digits = Backbones.identity(fsil.data.sets.DigitsDataset.load());
        // pins the layout and the embedded data: changes only when either does (then update DATA.md as well)
        assertEquals(DIGITS, digits.fingerprint());
    }

    static final String DIGITS = "88f3161139dfb09c6cefcdfd40afd74a00ad0420b4c9896040bdac2973084500";
}
