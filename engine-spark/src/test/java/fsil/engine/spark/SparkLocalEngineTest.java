package fsil.engine.spark;

import com.google.inject.Guice;
import fsil.app.FsilModule;
import fsil.data.FeatureSet;
import fsil.engine.spark.testing.SparkProbeMethod;
import fsil.eval.run.FeatureSource;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static fsil.engine.spark.Summaries.assertSameResults;
import static fsil.engine.spark.Summaries.fsil;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spark engine on real local masters (executors are threads of this JVM; tasks, serialization, broadcasts and
 * the scheduler are Spark's own): the same specs give the same numbers as the local engine, a run moves between
 * engines, a unit that throws is a failed row run once, and an executor that cannot run stops the run after
 * Spark's bounded retries.
 */
class SparkLocalEngineTest {
    static final Path CACHE = Path.of("target", "test-cache");

    @TempDir
    Path tmp;

    static List<String> run(Path out, String... spec) {
        List<String> a = new ArrayList<>(List.of("run", "--out", out.toString(), "--cache", CACHE.toString(),
                "--quiet"));
        a.addAll(List.of(spec));
        return a;
    }

    static List<String> spark(List<String> args, String master, String... options) {
        List<String> a = new ArrayList<>(args);
        a.addAll(List.of("--engine", "spark", "--master", master));
        for (String o : options) {
            a.addAll(List.of("--engine-option", o));
        }
        return a;
    }

    /** testkit's engine kit: the engine's own metadata, and the local engine's numbers on a local[2] master. */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> conformsToTheEngineKit() {
        return fsil.testkit.EngineConformance.of(new SparkEngineProvider()).withOptions(java.util.Map.of("master",
                "local[2]")).methods("ncm,knn").in(tmp).tests();
    }

    private void sameOnBothEngines(String name, String features, String... spec) throws IOException {
        Path local = tmp.resolve(name + "-local");
        Path spark = tmp.resolve(name + "-spark");
        Summaries.Result l = fsil(run(local, spec));
        assertEquals(0, l.code(), l.err());
        Summaries.Result s = fsil(spark(run(spark, spec), "local[2]", "features=" + features));
        assertEquals(0, s.code(), s.err());
        assertSameResults(local, spark);
        assertEquals(Files.readString(local.resolve("spec.json")), Files.readString(spark.resolve("spec.json")));
    }

    @Test
    void fewShotIsIdenticalOnSparkWithFeaturesInProcess() throws IOException {
        sameOnBothEngines("fewshot", "in-process", "--methods", "ncm,ppca,bavardage", "--datasets", "digits",
                "--protocol", "fewshot", "--shots", "1,5", "--episodes", "20", "-o", "episodes-per-unit=4",
                "--threads", "2");
    }

    @Test
    void classIncrementalIsIdenticalOnSparkWithBroadcastFeatures() throws IOException {
        sameOnBothEngines("cil", "broadcast", "--methods", "ncm,ppca", "--datasets", "digits", "--protocol", "cil",
                "--steps", "2", "-o", "runs=3", "--threads", "2");
    }

    @Test
    void fewShotClassIncrementalIsIdenticalOnSparkWithSharedFeatures() throws IOException {
        sameOnBothEngines("fscil", "shared", "--methods", "ncm,ppca", "--datasets",
                "digits,synthetic:classes=20,dim=32,per_class=30,test_per_class=10", "--protocol", "fscil", "-o",
                "runs=2", "--threads", "2");
    }

    /** A run started on one engine is finished on the other, both ways, to the numbers of an uninterrupted run. */
    @Test
    void aRunMovesBetweenEngines() throws IOException {
        String[] spec = {"--methods", "ncm,ppca", "--datasets", "digits", "--protocol", "fewshot", "--episodes", "40",
                "-o", "episodes-per-unit=4", "--threads", "2"};
        Path full = tmp.resolve("full");
        assertEquals(0, fsil(run(full, spec)).code());
        assertEquals(20, UnitStore.read(full.resolve("units.csv")).rows().size());

        Path toSpark = tmp.resolve("local-then-spark");
        assertEquals(0, fsil(run(toSpark, spec)).code());
        keepRows(toSpark, 7);
        Summaries.Result resumed = fsil(spark(List.of("run", "--resume", toSpark.toString(), "--cache",
                CACHE.toString(), "--quiet"), "local[2]"));
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.out().contains("(13 units run now)"), resumed.out());
        assertSameResults(full, toSpark);

        Path toLocal = tmp.resolve("spark-then-local");
        assertEquals(0, fsil(spark(run(toLocal, spec), "local[2]")).code());
        keepRows(toLocal, 5);
        Summaries.Result back = fsil("run", "--resume", toLocal.toString(), "--cache", CACHE.toString(), "--quiet");
        assertEquals(0, back.code(), back.err());
        assertTrue(back.out().contains("(15 units run now)"), back.out());
        assertSameResults(full, toLocal);
    }

    /** The first {@code n} rows stay, as if the run had been stopped there. */
    private static void keepRows(Path run, int n) throws IOException {
        List<UnitRecord> rows = UnitStore.read(run.resolve("units.csv")).rows();
        UnitStore.rewrite(run.resolve("units.csv"), rows.subList(0, n));
        Files.delete(run.resolve("summary.csv"));
    }

    /** A unit whose method throws is a failed row with its reason, as on the local engine, and runs once. */
    @Test
    void aUnitThatThrowsIsAFailedRowRunOnce() throws IOException {
        String[] spec = {"--methods", "ncm,spark-probe[fail-mod=3]", "--datasets", "digits", "--protocol",
                "fewshot", "--episodes", "30", "-o", "episodes-per-unit=3", "--threads", "2"};
        SparkProbeMethod.FAILURES.set(0);
        Summaries.Result l = fsil(run(tmp.resolve("local"), spec));
        assertEquals(3, l.code(), "units failed: " + l.err());
        int localFailures = SparkProbeMethod.FAILURES.getAndSet(0);
        Summaries.Result s = fsil(spark(run(tmp.resolve("spark"), spec), "local[2]"));
        assertEquals(3, s.code(), s.err());
        // each reason is shown by its first instance in store order, which is the order units ended in
        assertEquals(l.err().replaceAll("support \\d+", "support #"), s.err().replaceAll("support \\d+", "support #"),
                "the same failure reasons and counts");
        long failedRows = UnitStore.read(tmp.resolve("spark").resolve("units.csv")).rows().stream()
                .filter(r -> !r.ok()).count();
        assertTrue(failedRows > 0 && failedRows < 10, "some units failed: " + failedRows);
        assertEquals(failedRows, localFailures);
        assertEquals(failedRows, SparkProbeMethod.FAILURES.get(), "each failed unit ran once: Spark did not retry it");
        assertSameResults(tmp.resolve("local"), tmp.resolve("spark"));
    }

    /**
     * A task that fails (here: its executor cannot rebuild the plan) is retried by Spark up to its limit (local[2,3]:
     * 3 attempts), then the run stops with the reason; it can be resumed, e.g. on the local engine.
     */
    @Test
    void aTaskThatKeepsFailingStopsTheRunAfterBoundedRetries() throws IOException {
        String[] spec = {"--methods", "ncm,spark-probe[refuse-executors=1]", "--datasets", "digits", "--protocol",
                "fewshot", "--episodes", "20", "-o", "episodes-per-unit=5", "--threads", "2"};
        Path dir = tmp.resolve("refused");
        SparkProbeMethod.REFUSALS.set(0);
        Summaries.Result s = fsil(spark(run(dir, spec), "local[2,3]", "units-per-task=2"));
        assertEquals(2, s.code(), s.out());
        assertTrue(s.err().contains("the run stopped: Spark gave up") && s.err().contains("failed 3 times")
                && s.err().contains("spark-probe refuses to be resolved on an executor"), s.err());
        assertTrue(s.err().contains("resume with 'fsil run --resume " + dir + "'"), s.err());
        int refusals = SparkProbeMethod.REFUSALS.get();
        assertTrue(refusals >= 3 && refusals <= 3 * 4, "bounded attempts: " + refusals);
        assertEquals(0, UnitStore.read(dir.resolve("units.csv")).rows().size());
        Summaries.Result resumed = fsil("run", "--resume", dir.toString(), "--cache", CACHE.toString(), "--quiet");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.out().contains("(8 units run now)"), resumed.out());
    }

    @Test
    void engineOptionsAreChecked() {
        Summaries.Result bad = fsil(spark(run(tmp.resolve("x"), "--methods", "ncm", "--datasets", "digits",
                "--protocol", "fewshot"), "local[2]", "features=everywhere"));
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("parameter 'features' got 'everywhere', expected one of [auto, broadcast, shared,"
                + " in-process]"), bad.err());
        Summaries.Result unknown = fsil(spark(run(tmp.resolve("y"), "--methods", "ncm", "--datasets", "digits",
                "--protocol", "fewshot"), "local[2]", "cores=3"));
        assertTrue(unknown.err().contains("engine spark has no parameter 'cores'")
                && unknown.err().contains("units-per-task"), unknown.err());
    }

    /** What executors get by broadcast is the driver's data, bit for bit. */
    @Test
    void featureSetsCrossTheWireExactly() {
        FeatureSource source = Guice.createInjector(new FsilModule().withCacheDir(CACHE))
                .getInstance(FeatureSource.class);
        for (String name : List.of("digits", "synthetic:classes=20,dim=32,per_class=30,test_per_class=10")) {
            FeatureSet a = source.load(name, "identity", 1, CACHE);
            byte[] bytes = FeatureCodec.encode(a);
            FeatureSet b = FeatureCodec.decode(bytes);
            assertEquals(List.of(a.dataset(), a.backbone(), a.key(), a.classes()),
                    List.of(b.dataset(), b.backbone(), b.key(), b.classes()));
            for (var pair : List.of(List.of(a.train(), b.train()), List.of(a.test(), b.test()))) {
                assertArrayEquals(pair.get(0).features().rawData(), pair.get(1).features().rawData());
                assertArrayEquals(pair.get(0).labels(), pair.get(1).labels());
            }
            assertArrayEquals(a.splits().base(), b.splits().base());
            assertArrayEquals(a.splits().validation(), b.splits().validation());
            assertArrayEquals(a.splits().novel(), b.splits().novel());
            assertEquals(a.splits().fscil().isPresent(), b.splits().fscil().isPresent());
            a.splits().fscil().ifPresent(f -> {
                assertArrayEquals(f.baseClasses(), b.splits().fscil().get().baseClasses());
                assertEquals(f.sessionSamples().size(), b.splits().fscil().get().sessionSamples().size());
                for (int i = 0; i < f.sessionSamples().size(); i++) {
                    assertArrayEquals(f.sessionSamples().get(i), b.splits().fscil().get().sessionSamples().get(i));
                }
            });
            long values = (long) (a.train().size() + a.test().size()) * a.dimension();
            assertTrue(bytes.length >= 4 * values && bytes.length < 4 * values + 8 * (a.train().size()
                    + a.test().size()) + 65536, name + ": 4 bytes a value plus labels and names, " + bytes.length);
        }
    }

    static long count(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
