package fsil.backbones.djl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fsil.api.Params;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Feature caching (a second load does not train) and determinism (same seed and threads, same features). */
class CacheAndDeterminismTest {
    @TempDir
    Path cache;

    static final Map<String, String> TINY = Map.of("epochs", "2", "batch", "32", "val_episodes", "20");

    private static List<Path> metaFiles(Path cache) throws IOException {
        Path features = cache.resolve("features");
        if (!Files.isDirectory(features)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(features)) {
            return s.filter(p -> p.getFileName().toString().equals("meta.json")).toList();
        }
    }

    @Test
    void secondLoadReusesTheCacheWithoutTraining() throws IOException {
        RawDataset raw = TestData.digits(cache);
        Conv4Backbone b = new Conv4Backbone();
        Params p = b.params(TINY);
        FeatureSet first;
        try (ProgressCapture log = new ProgressCapture()) {
            first = b.apply(raw, p, 11, cache);
            assertTrue(log.any("training backbone conv4["), "training reports progress: " + log.lines);
            assertTrue(log.any("embedding with conv4["), log.lines.toString());
        }
        List<Path> metas = metaFiles(cache);
        assertEquals(1, metas.size());
        JsonNode meta = new ObjectMapper().readTree(metas.get(0).toFile());
        assertEquals(b.describe(p), meta.get("backbone").asText());
        assertEquals(11, meta.get("seed").asLong());
        assertEquals(2, meta.get("epoch_loss").size());
        assertEquals(2, meta.get("epoch_validation_accuracy").size(), "validation classes {1, 3} choose the epoch");
        assertTrue(meta.get("engine").asText().startsWith("PyTorch 2.7.1"), meta.toString());
        assertEquals("1x8x8", meta.get("image_shape").asText());
        byte[] metaBytes = Files.readAllBytes(metas.get(0));

        FeatureSet second;
        try (ProgressCapture log = new ProgressCapture()) {
            second = new Conv4Backbone().apply(raw, p, 11, cache);
            assertTrue(log.lines.isEmpty(), "a cached load neither trains nor embeds: " + log.lines);
        }
        assertArrayEquals(metaBytes, Files.readAllBytes(metas.get(0)), "meta.json is not rewritten");
        assertArrayEquals(first.train().features().rawData(), second.train().features().rawData());
        assertArrayEquals(first.test().features().rawData(), second.test().features().rawData());
        assertEquals(first.fingerprint(), second.fingerprint());

        // another seed is another cache entry
        b.apply(raw, p, 12, cache);
        assertEquals(2, metaFiles(cache).size());
    }

    @Test
    void sameSeedAndThreadsGiveTheSameFeatures(@TempDir Path other) {
        RawDataset raw = TestData.digits(cache);
        Conv4Backbone b = new Conv4Backbone();
        Params p = b.params(TINY);
        FeatureSet a = b.apply(raw, p, 5, cache);
        FeatureSet again = b.apply(raw, p, 5, other); // a cold cache: trained again from scratch
        assertArrayEquals(a.train().features().rawData(), again.train().features().rawData());
        assertArrayEquals(a.test().features().rawData(), again.test().features().rawData());
        FeatureSet seed6 = b.apply(raw, p, 6, cache);
        assertFalse(java.util.Arrays.equals(a.train().features().rawData(), seed6.train().features().rawData()),
                "another seed gives other features");
    }
}
