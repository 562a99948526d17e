package fsil.testkit;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.data.Backbone;
import fsil.data.FeatureSet;
import fsil.data.Images;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance kit of a backbone plugin (the contract of {@link Backbone}):
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance() {
 *     return BackboneConformance.of(new MyBackbone()).withParams(Map.of("epochs", "1")).tests();
 * }
 * }</pre>
 *
 * Checks, on a small dataset of well-separated classes (4 base, 4 novel; or {@link #withData} for a backbone that
 * needs images): metadata and typed parameters; a stable canonical text; every sample embedded, with finite values,
 * labels, classes and splits passed through; the same seed gives the same features in a fresh cache and from the
 * cache; and training on base classes only: changing the novel classes' samples changes no other sample's features.
 */
public final class BackboneConformance {
    private final Backbone backbone;
    private Map<String, String> params = Map.of();
    private RawDataset data = toyData(0);

    private BackboneConformance(Backbone backbone) {
        this.backbone = backbone;
    }

    public static BackboneConformance of(Backbone backbone) {
        return new BackboneConformance(backbone);
    }

    /** Parameter values every check uses (e.g. one epoch). */
    public BackboneConformance withParams(Map<String, String> values) {
        this.params = Map.copyOf(values);
        return this;
    }

    /** The data to embed (it needs base and novel classes). */
    public BackboneConformance withData(RawDataset raw) {
        this.data = raw;
        return this;
    }

    public Stream<DynamicTest> tests() {
        String p = "backbone " + backbone.id() + ": ";
        List<DynamicTest> t = new ArrayList<>();
        t.add(DynamicTest.dynamicTest(p + "metadata and parameters", () -> PluginChecks.metadata(backbone)));
        t.add(DynamicTest.dynamicTest(p + "unknown parameter rejected",
                () -> PluginChecks.unknownParameterRejected(backbone)));
        t.add(DynamicTest.dynamicTest(p + "canonical text is stable", this::checkDescribe));
        t.add(DynamicTest.dynamicTest(p + "embeds every sample, deterministic and cached", this::checkApply));
        t.add(DynamicTest.dynamicTest(p + "learns from base classes only", this::checkBaseOnly));
        return t.stream();
    }

    private void checkDescribe() {
        Params a = backbone.params(params);
        String text = backbone.describe(a);
        assertFalse(text.isBlank(), "describe() is empty");
        assertEquals(text, backbone.describe(backbone.params(params)), "describe() is not a function of the parameters");
    }

    private void checkApply() throws IOException {
        try (Scratch tmp = new Scratch()) {
            Params p = backbone.params(params);
            FeatureSet a = backbone.apply(data, p, 7, tmp.dir());
            assertEquals(data.train().size(), a.train().size(), "every training sample is embedded");
            assertEquals(data.test().size(), a.test().size(), "every test sample is embedded");
            assertTrue(a.dimension() > 0, "feature dimension 0");
            assertArrayEquals(data.train().labels(), a.train().labels(), "labels pass through");
            assertArrayEquals(data.test().labels(), a.test().labels());
            assertSame(data.classes(), a.classes(), "classes pass through");
            assertSame(data.splits(), a.splits(), "splits pass through");
            for (LabeledData part : List.of(a.train(), a.test())) {
                for (float v : part.features().rawData()) {
                    assertTrue(Float.isFinite(v), "non-finite feature");
                }
            }
            Path cache = tmp.dir();
            FeatureSet fresh = backbone.apply(data, p, 7, cache);
            assertArrayEquals(a.train().features().rawData(), fresh.train().features().rawData(),
                    "the same seed gives other features");
            FeatureSet cached = backbone.apply(data, p, 7, cache);
            assertArrayEquals(a.test().features().rawData(), cached.test().features().rawData(),
                    "the cached features differ from the computed ones");
            assertEquals(a.key(), cached.key());
        }
    }

    private void checkBaseOnly() throws IOException {
        try (Scratch tmp = new Scratch()) {
            Params p = backbone.params(params);
            RawDataset changed = withNovelShifted(data);
            FeatureSet a = backbone.apply(data, p, 3, tmp.dir());
            FeatureSet b = backbone.apply(changed, p, 3, tmp.dir());
            int d = a.dimension();
            for (int part = 0; part < 2; part++) {
                LabeledData raw = part == 0 ? data.train() : data.test();
                LabeledData raw2 = part == 0 ? changed.train() : changed.test();
                FeatureMatrix fa = (part == 0 ? a.train() : a.test()).features();
                FeatureMatrix fb = (part == 0 ? b.train() : b.test()).features();
                for (int r = 0; r < raw.size(); r++) {
                    if (rowEquals(raw.features(), raw2.features(), r)) {
                        for (int j = 0; j < d; j++) {
                            assertEquals(fa.get(r, j), fb.get(r, j), "changing novel-class samples changed the features"
                                    + " of an unchanged sample (row " + r + "): the backbone learns from non-base data");
                        }
                    }
                }
            }
        }
    }

    private static boolean rowEquals(FeatureMatrix x, FeatureMatrix y, int r) {
        for (int j = 0; j < x.cols(); j++) {
            if (Float.floatToIntBits(x.get(r, j)) != Float.floatToIntBits(y.get(r, j))) {
                return false;
            }
        }
        return true;
    }

    /** The same data with the novel classes' inputs (features, and images when there are) changed. */
    private static RawDataset withNovelShifted(RawDataset raw) {
        int[] novel = raw.splits().novel();
        LabeledData train = new LabeledData(shift(raw.train().features(), raw.train().labels(), novel),
                raw.train().labels());
        LabeledData test = new LabeledData(shift(raw.test().features(), raw.test().labels(), novel),
                raw.test().labels());
        Images im = raw.images();
        Images shifted = im == null ? null : new Images(im.channels(), im.height(), im.width(),
                shift(im.train(), raw.train().labels(), novel), shift(im.test(), raw.test().labels(), novel));
        return new RawDataset(raw.name() + "|novel-shifted", raw.classes(), train, test, raw.splits(), shifted);
    }

    private static FeatureMatrix shift(FeatureMatrix m, int[] labels, int[] classes) {
        float[] x = m.rawData().clone();
        int d = m.cols();
        for (int r = 0; r < m.rows(); r++) {
            int y = labels[r];
            if (IntStream.of(classes).anyMatch(c -> c == y)) {
                for (int j = 0; j < d; j++) {
                    x[r * d + j] = Math.min(1f, x[r * d + j] * 0.5f + 0.25f);
                }
            }
        }
        return FeatureMatrix.wrap(m.rows(), d, x);
    }

    /** 8 classes of 12 training and 4 test samples in dimension 16, values in [0, 1]; classes 0-3 are base. */
    static RawDataset toyData(long seed) {
        int[] ids = IntStream.range(0, 8).toArray();
        LabeledData train = unit(ToyData.clusters(ids, 12, 16, 3.0, 0.5, seed + 1));
        LabeledData test = unit(ToyData.clusters(ids, 4, 16, 3.0, 0.5, seed + 2));
        List<String> names = IntStream.range(0, 8).mapToObj(i -> "c" + i).toList();
        return new RawDataset("conformance-toy", new ClassTable(names, List.of()), train, test,
                new SplitSet(new int[]{0, 1, 2, 3}, new int[0], new int[]{4, 5, 6, 7}, Optional.empty()), 0);
    }

    /** Squashed into [0, 1] like pixels. */
    private static LabeledData unit(LabeledData d) {
        float[] x = d.features().rawData().clone();
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (1 / (1 + Math.exp(-x[i] / 3)));
        }
        return new LabeledData(FeatureMatrix.wrap(d.size(), d.dimension(), x), d.labels());
    }
}
