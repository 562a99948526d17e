package fsil.data;

import fsil.api.FsilException;
import fsil.api.ProgressSink;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PretrainedMlpBackboneTest {
    static final String SMALL = "pretrained-mlp[hidden=32-16,epochs=8,batch=64,lr=0.003]";

    static PretrainedMlpBackbone.Config config(String backbone) {
        return PretrainedMlpBackbone.Config.of(Backbones.resolve(backbone).params());
    }

    @TempDir
    Path cache;

    @Test
    void trainsOnBaseClassesCachesAndIsDeterministic() throws Exception {
        FeatureSet a = Datasets.load("digits", SMALL, 3, cache);
        assertEquals(16, a.dimension());
        assertEquals(1258, a.train().size());
        for (float v : a.test().features().rawData()) {
            assertTrue(v >= 0 && Float.isFinite(v), "ReLU features are finite and non-negative");
        }
        assertTrue(a.key().contains("seed=3") && a.backbone().startsWith("pretrained-mlp"));
        Path dir;
        try (var l = Files.list(cache.resolve("features"))) {
            dir = l.findFirst().orElseThrow();
        }
        assertTrue(Files.exists(dir.resolve("meta.json")));
        String meta = Files.readString(dir.resolve("meta.json"));
        assertTrue(meta.contains("\"base_classes\" : 5"), meta);
        // cached load gives identical features; so does retraining with the same seed
        FeatureSet cached = Datasets.load("digits", SMALL, 3, cache);
        assertArrayEquals(a.train().features().rawData(), cached.train().features().rawData());
        RawDataset raw = Datasets.loadRaw("digits", cache);
        PretrainedMlpBackbone.Trained t = PretrainedMlpBackbone.train(raw, config(SMALL), 3, ProgressSink.SILENT);
        assertArrayEquals(a.test().features().rawData(),
                PretrainedMlpBackbone.features(t, raw.test().features()).rawData());
        // the loss goes down and the base classes are learnt
        assertTrue(t.epochLoss().get(t.epochLoss().size() - 1) < 0.5 * t.epochLoss().get(0), t.epochLoss().toString());
        assertTrue(t.epochAccuracy().get(t.epochAccuracy().size() - 1) > 0.9, t.epochAccuracy().toString());
        FeatureSet other = Datasets.load("digits", SMALL, 4, cache);
        assertFalse(Arrays.equals(a.train().features().rawData(), other.train().features().rawData()));
    }

    @Test
    void standardisationUsesBaseTrainingSamplesOnly() {
        RawDataset raw = Datasets.loadRaw("digits", cache);
        PretrainedMlpBackbone.Trained t = PretrainedMlpBackbone.train(raw,
                config("pretrained-mlp:hidden=4,epochs=1"), 0, ProgressSink.SILENT);
        int[] base = raw.splits().base();
        double s = 0;
        int n = 0;
        for (int i = 0; i < raw.train().size(); i++) {
            int y = raw.train().labels()[i];
            if (Arrays.stream(base).anyMatch(c -> c == y)) {
                s += raw.train().features().get(i, 20);
                n++;
            }
        }
        assertEquals(s / n, t.mean()[20], 1e-5);
        // the classifier trained over the base classes only: the map has 4 outputs, training saw 5 classes
        assertEquals(4, t.mlp().outputSize());
    }

    @Test
    void noBaseClassesIsAClearError() {
        RawDataset raw = Datasets.loadRaw("digits", cache);
        RawDataset noBase = new RawDataset(raw.name(), raw.classes(), raw.train(), raw.test(),
                new SplitSet(new int[0], new int[0], raw.splits().novel(), Optional.empty()), 8);
        FsilException e = assertThrows(FsilException.class, () -> PretrainedMlpBackbone.train(noBase, config(SMALL), 0, ProgressSink.SILENT));
        assertTrue(e.getMessage().contains("base classes"), e.getMessage());
    }
}
