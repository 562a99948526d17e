package fsil.data.sets.glyphs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fsil.api.FsilException;
import fsil.data.Datasets;
import fsil.data.RawDataset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Glyph generation on a small subset of scripts (the full set is measured in data/DATA.md). */
class GlyphsDatasetTest {
    static final String SUBSET = "scripts=OGHAM+RUNIC,instances=4,train_per_class=3,seed=5";

    @TempDir
    Path cache;

    @BeforeAll
    static void fonts() {
        assumeTrue(GlyphsDataset.missing() == null, "glyph tests need fonts-noto-core: " + GlyphsDataset.missing());
    }

    @Test
    void committedScriptListsAreDisjointAndMatchTheRule() {
        GlyphsDataset.ScriptSplit s = GlyphsDataset.ScriptSplit.committed();
        Set<String> all = new HashSet<>();
        for (List<String> part : List.of(s.background(), s.validation(), s.evaluation())) {
            for (String script : part) {
                assertTrue(all.add(script), script + " is listed twice");
                Character.UnicodeScript.valueOf(script); // a real script name
            }
        }
        assertEquals(GlyphsTool.splitScripts(s.all()).get("evaluation"), s.evaluation());
        assertEquals(GlyphsTool.splitScripts(s.all()).get("background"), s.background());
    }

    @Test
    void fontCoverageRejectsMissingAndNotdefGlyphs() {
        Path dejavu = GlyphsDataset.fontFiles().stream()
                .filter(p -> p.getFileName().toString().equals("DejaVuSans.ttf")).findFirst().orElse(null);
        assumeTrue(dejavu != null, "DejaVuSans.ttf not installed");
        GlyphFont f = GlyphFont.load(dejavu);
        assertTrue(f.covers('A'));
        assertFalse(f.covers(0x10FFFD), "private-use code point");
        assertFalse(f.covers(0x17000), "Tangut is not in DejaVu");
        assertFalse(f.covers(' '), "blank glyph");
        assertEquals(64, f.sha256().length());
    }

    @Test
    void subsetIsByteIdenticalAcrossRunsAndCachedWithMetadata() throws Exception {
        GlyphsDataset.Params p = parse(SUBSET);
        GlyphsDataset.Generated a = GlyphsDataset.generate(p);
        GlyphsDataset.Generated b = GlyphsDataset.generate(p);
        assertArrayEquals(a.images(), b.images());
        assertArrayEquals(a.labels(), b.labels());

        RawDataset raw = Datasets.loadRaw("glyphs:" + SUBSET, cache);
        int k = raw.classes().size();
        assertTrue(k >= 2 * GlyphsDataset.MIN_PER_SCRIPT && k <= 40, "classes: " + k);
        assertEquals(3 * k, raw.train().size());
        assertEquals(k, raw.test().size());
        assertEquals(784, raw.dimension());
        Set<String> groups = new HashSet<>(raw.classes().groups());
        assertEquals(Set.of("OGHAM", "RUNIC"), groups);
        // the split follows the committed script lists
        GlyphsDataset.ScriptSplit s = GlyphsDataset.ScriptSplit.committed();
        for (int c : raw.splits().novel()) {
            assertTrue(s.evaluation().contains(raw.classes().group(c)));
        }
        for (int c : raw.splits().base()) {
            assertTrue(s.background().contains(raw.classes().group(c)));
        }
        assertEquals(k, raw.splits().base().length + raw.splits().validation().length + raw.splits().novel().length);
        // every image has ink and background
        float[] x = raw.train().features().rawData();
        for (int i = 0; i < raw.train().size(); i++) {
            int ink = 0;
            for (int j = 0; j < 784; j++) {
                ink += x[i * 784 + j] > 0.5f ? 1 : 0;
            }
            assertTrue(ink > 10 && ink < 500, "ink pixels " + ink + " in image " + i);
        }
        // cache: the files and the metadata
        Path dir;
        try (var l = Files.list(cache.resolve("glyphs"))) {
            dir = l.findFirst().orElseThrow();
        }
        JsonNode meta = new ObjectMapper().readTree(dir.resolve("meta.json").toFile());
        assertEquals(k, meta.get("classes").size());
        assertTrue(meta.get("fonts").size() > 0);
        assertEquals(64, meta.get("fonts").get(0).get("sha256").asText().length());
        assertTrue(meta.get("classes").get(0).get("codepoint").asText().startsWith("U+"));
        // a second load reads the cache and gives the same data
        RawDataset again = Datasets.loadRaw("glyphs:" + SUBSET, cache);
        assertArrayEquals(raw.train().features().rawData(), again.train().features().rawData());
        assertEquals(raw.classes(), again.classes());
        // the cached images are exactly the generated bytes
        byte[] cached = fsil.data.io.NpyReader.read(dir.resolve("images.npy")).toUint8();
        assertArrayEquals(a.images(), cached);
    }

    @Test
    void committedFscilSessionsResolveToEvaluationClassShots() {
        List<String> lines = fsil.data.split.SplitFiles.resourceLines("glyphs", "fscil_sessions.txt");
        assertEquals(GlyphsTool.FSCIL_SESSIONS, lines.size());
        GlyphsDataset.Meta meta = new GlyphsDataset.Meta();
        meta.classes = new java.util.ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String line : lines) {
            String[] parts = line.split(" ");
            assertEquals("session", parts[0]);
            assertEquals(GlyphsTool.FSCIL_WAYS, parts.length - 1);
            for (int i = 1; i < parts.length; i++) {
                assertTrue(seen.add(parts[i]), "classes are drawn without replacement");
                int cp = Integer.parseInt(parts[i].substring(2), 16);
                assertTrue(GlyphsDataset.ScriptSplit.committed().evaluation()
                        .contains(Character.UnicodeScript.of(cp).name()), parts[i] + " is from an evaluation script");
                GlyphsDataset.MetaClass mc = new GlyphsDataset.MetaClass();
                mc.id = meta.classes.size();
                mc.codepoint = parts[i];
                meta.classes.add(mc);
            }
        }
        var f = GlyphsDataset.fscil(meta, new int[]{7}, 15).orElseThrow();
        assertArrayEquals(new int[]{7}, f.baseClasses());
        assertEquals(GlyphsTool.FSCIL_SESSIONS, f.sessionSamples().size());
        // class 0's shots are its first five training rows 0..4; class 1 starts at row 15
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 15, 16, 17, 18, 19}, java.util.Arrays.copyOf(f.sessionSamples().get(0), 10));
        meta.classes.remove(3);
        assertTrue(GlyphsDataset.fscil(meta, new int[]{7}, 15).isEmpty(), "a missing class disables FSCIL");
    }

    @Test
    void rejectsUnknownScriptsAndOptions() {
        assertTrue(assertThrows(FsilException.class, () -> parse("scripts=KLINGON")).getMessage()
                .contains("valid scripts"));
        assertThrows(FsilException.class, () -> parse("size=32"));
        assertThrows(FsilException.class, () -> parse("instances=5,train_per_class=5"));
    }

    /** The generation parameters of {@code glyphs:KEY=VALUE,...}, resolved as the command line resolves them. */
    static GlyphsDataset.Params parse(String keyValues) {
        return fsil.data.sets.BuiltinDatasets.Glyphs.of(fsil.data.Datasets.resolve(fsil.data.Datasets.discover(),
                "glyphs:" + keyValues).params());
    }
}
