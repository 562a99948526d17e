package fsil.testkit;

import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance kit of a dataset plugin:
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance() {
 *     return DatasetConformance.of(new MyDataset()).withParams(Map.of("path", dir.toString())).tests();
 * }
 * }</pre>
 *
 * Checks: metadata and typed parameters (unknown names rejected listing the valid ones); the catalog row never
 * throws; when the data is available here (else the loading checks are skipped), the loaded data is consistent:
 * train and test share the dimension, labels index the class table, features are finite, the base, validation and
 * novel splits are disjoint valid class ids and FSCIL session samples are valid training rows; loading twice gives
 * the same name and the same bytes.
 */
public final class DatasetConformance {
    private final Dataset dataset;
    private Map<String, String> params = Map.of();

    private DatasetConformance(Dataset dataset) {
        this.dataset = dataset;
    }

    public static DatasetConformance of(Dataset dataset) {
        return new DatasetConformance(dataset);
    }

    /** Parameter values the loading checks use (e.g. a path, or a small size). */
    public DatasetConformance withParams(Map<String, String> values) {
        this.params = Map.copyOf(values);
        return this;
    }

    public Stream<DynamicTest> tests() {
        String p = "dataset " + dataset.id() + ": ";
        List<DynamicTest> t = new ArrayList<>();
        t.add(DynamicTest.dynamicTest(p + "metadata and parameters", () -> PluginChecks.metadata(dataset)));
        t.add(DynamicTest.dynamicTest(p + "unknown parameter rejected",
                () -> PluginChecks.unknownParameterRejected(dataset)));
        t.add(DynamicTest.dynamicTest(p + "catalog row", this::checkInfo));
        t.add(DynamicTest.dynamicTest(p + "loaded data is consistent and deterministic", this::checkLoad));
        return t.stream();
    }

    private void checkInfo() throws IOException {
        try (Scratch tmp = new Scratch()) {
            Path cache = tmp.dir();
            DatasetInfo info = dataset.info(cache);
            assertNotNull(info);
            assertFalse(info.description().isBlank(), "catalog description is empty");
            if (!info.available()) {
                assertFalse(info.howToGet().isBlank(), "an unavailable dataset must say how to get it");
            }
        }
    }

    private void checkLoad() throws IOException {
        try (Scratch tmp = new Scratch()) {
            Path cache = tmp.dir();
            Assumptions.assumeTrue(dataset.info(cache).available(), dataset.id() + " is not available on this machine");
            Params resolved = dataset.params(params);
            RawDataset a;
            try {
                a = dataset.load(resolved, cache);
            } catch (FsilException e) {
                throw new AssertionError(dataset.id() + " did not load with " + params + ": " + e.getMessage(), e);
            }
            assertFalse(a.name().isBlank(), "the canonical name is empty");
            assertEquals(a.train().dimension(), a.test().dimension(), "train and test dimensions differ");
            assertTrue(a.train().size() > 0, "no training samples");
            int classes = a.classes().size();
            for (LabeledData part : List.of(a.train(), a.test())) {
                for (int y : part.labels()) {
                    assertTrue(y >= 0 && y < classes, "label " + y + " is not a class id below " + classes);
                }
                for (float v : part.features().rawData()) {
                    assertTrue(Float.isFinite(v), "non-finite feature value");
                }
            }
            SplitSet s = a.splits();
            Set<Integer> seen = new HashSet<>();
            for (int[] split : List.of(s.base(), s.validation(), s.novel())) {
                for (int c : split) {
                    assertTrue(c >= 0 && c < classes, "split class " + c + " is not a class id");
                    assertTrue(seen.add(c), "class " + c + " is in two splits");
                }
            }
            s.fscil().ifPresent(f -> f.sessionSamples().forEach(rows -> {
                for (int r : rows) {
                    assertTrue(r >= 0 && r < a.train().size(), "FSCIL session sample " + r + " is not a training row");
                }
            }));
            RawDataset b = dataset.load(dataset.params(params), cache);
            assertEquals(a.name(), b.name(), "the same parameters give another canonical name");
            assertArrayEquals(a.train().features().rawData(), b.train().features().rawData(), "loading is not deterministic");
            assertArrayEquals(a.train().labels(), b.train().labels());
            assertArrayEquals(a.test().features().rawData(), b.test().features().rawData());
        }
    }
}
