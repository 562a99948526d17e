package fsil.eval.report;

import fsil.eval.run.Runner;
import fsil.eval.run.RunnerTest;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * plotly.min.js of a report is its own checked copy: an in-place write to the cache's copy (or to another report's)
 * changes no report, a damaged cache is re-created, {@code fsil report} repairs a damaged copy, and the cache
 * directory is the one the caller passes. Every test uses its own cache directory (never ~/.cache/fsil).
 */
class PlotlyAssetTest {
    private static final Map<String, List<String>> EPISODES = Map.of("episodes", List.of("4"), "ways", List.of("3"),
            "queries", List.of("6"));

    static Runner runner(Path cache) {
        return new Runner(TestPlugins.methods(), TestPlugins.protocols(), TestPlugins.metrics(),
                (name, backbone, seed, c) -> RunnerTest.TOY, cache);
    }

    static String hash(Path file) throws IOException {
        return PlotlyAsset.sha256(Files.readAllBytes(file));
    }

    static long links(Path file) throws IOException {
        return ((Number) Files.getAttribute(file, "unix:nlink")).longValue();
    }

    /** Writes over the file in place (same inode), as a careless editor or a buggy tool would. */
    static void overwriteInPlace(Path file, String content) throws IOException {
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void theKnownHashIsThatOfTheShippedFile() throws IOException {
        try (InputStream in = PlotlyAsset.class.getResourceAsStream("/fsil/report/plotly.min.js")) {
            byte[] js = in.readAllBytes();
            assertEquals(PlotlyAsset.SHA256, PlotlyAsset.sha256(js));
            assertEquals(PlotlyAsset.SIZE, js.length);
            assertTrue(new String(js, 0, 200, StandardCharsets.UTF_8).contains("plotly.js v" + PlotlyAsset.VERSION));
        }
    }

    @Test
    void aRunKeepsPlotlyInTheCacheItIsGivenAndItsReportHasItsOwnCopy(@TempDir Path tmp) throws IOException {
        Path cache = tmp.resolve("cache");
        Path run = tmp.resolve("run");
        runner(cache).run(RunnerTest.spec("ncm", "fewshot", EPISODES, 1), run);
        Path cached = cache.resolve("plotly-" + PlotlyAsset.VERSION + ".min.js");
        assertTrue(Files.isRegularFile(cached), "plotly.js is cached in the run's cache directory (--cache)");
        Path copy = run.resolve(PlotlyAsset.FILE);
        assertEquals(PlotlyAsset.SHA256, hash(copy));
        assertFalse(Files.isSameFile(copy, cached), "the report's plotly.min.js is not the cache's file");
        assertEquals(1, links(copy), "the report's plotly.min.js has no other name");
    }

    @Test
    void anInPlaceWriteToTheCachedCopyChangesNoReportAndIsRepairedByTheNextOne(@TempDir Path tmp) throws IOException {
        Path cache = tmp.resolve("cache");
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        PlotlyAsset.copyTo(a, cache);
        Path cached = cache.resolve("plotly-" + PlotlyAsset.VERSION + ".min.js");
        overwriteInPlace(cached, "");
        assertEquals(PlotlyAsset.SHA256, hash(a.resolve(PlotlyAsset.FILE)), "an earlier report keeps its script");
        PlotlyAsset.copyTo(b, cache);
        assertEquals(PlotlyAsset.SHA256, hash(b.resolve(PlotlyAsset.FILE)), "a later report gets the shipped script");
        assertEquals(PlotlyAsset.SHA256, hash(cached), "the damaged cached copy was re-created");

        overwriteInPlace(cached, "window.Plotly = null; // rewritten");
        PlotlyAsset.copyTo(a, cache);
        assertEquals(PlotlyAsset.SHA256, hash(a.resolve(PlotlyAsset.FILE)));
        overwriteInPlace(b.resolve(PlotlyAsset.FILE), "");
        assertEquals(PlotlyAsset.SHA256, hash(a.resolve(PlotlyAsset.FILE)), "reports share no file");
    }

    @Test
    void aRewriteOfTheCacheThatKeepsItsSizeIsStillFound(@TempDir Path tmp) throws IOException {
        // the process remembers the cache file it checked; a write of the same length must not slip past that
        Path cache = tmp.resolve("cache");
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        PlotlyAsset.copyTo(a, cache);
        Path cached = cache.resolve("plotly-" + PlotlyAsset.VERSION + ".min.js");
        overwriteInPlace(cached, "x".repeat((int) PlotlyAsset.SIZE));
        assertEquals(PlotlyAsset.SIZE, Files.size(cached));
        PlotlyAsset.copyTo(b, cache);
        assertEquals(PlotlyAsset.SHA256, hash(b.resolve(PlotlyAsset.FILE)), "the report gets the shipped script");
        assertEquals(PlotlyAsset.SHA256, hash(cached), "the rewritten cached copy was re-created");
    }

    @Test
    void fsilReportRepairsADamagedCopyInTheRunDirectory(@TempDir Path tmp) throws IOException {
        Path cache = tmp.resolve("cache");
        Path run = tmp.resolve("run");
        runner(cache).run(RunnerTest.spec("ncm", "fewshot", EPISODES, 1), run);
        Path copy = run.resolve(PlotlyAsset.FILE);
        overwriteInPlace(copy, "");
        Report.rebuild(run, TestPlugins.metrics().all(), cache);
        assertEquals(PlotlyAsset.SHA256, hash(copy), "emptied in place: repaired");

        Files.delete(copy);
        Files.writeString(copy, "alert('not plotly')");
        Report.rebuild(run, TestPlugins.metrics().all(), cache);
        assertEquals(PlotlyAsset.SHA256, hash(copy), "replaced by another file: repaired");

        // an older fsil hard-linked the run's copy to the cache's: an intact link is replaced by a private copy
        Path cached = cache.resolve("plotly-" + PlotlyAsset.VERSION + ".min.js");
        Files.delete(copy);
        Files.createLink(copy, cached);
        Report.rebuild(run, TestPlugins.metrics().all(), cache);
        assertFalse(Files.isSameFile(copy, cached), "the link was replaced by a copy");
        assertEquals(PlotlyAsset.SHA256, hash(copy));

        long modified = Files.getLastModifiedTime(copy).toMillis();
        Report.rebuild(run, TestPlugins.metrics().all(), cache);
        assertEquals(modified, Files.getLastModifiedTime(copy).toMillis(), "an intact private copy is left alone");
        try (Stream<Path> files = Files.list(run)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList(),
                    "no temporary file left");
        }
    }

    @Test
    void aCacheThatCannotBeWrittenStillGivesTheReportItsCopy(@TempDir Path tmp) throws IOException {
        Path cache = tmp.resolve("not-a-directory");
        Files.writeString(cache, "a file where the cache directory should be");
        Path dir = Files.createDirectories(tmp.resolve("report"));
        PlotlyAsset.copyTo(dir, cache);
        assertEquals(PlotlyAsset.SHA256, hash(dir.resolve(PlotlyAsset.FILE)));
    }
}
