package fsil.data;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.sets.FashionMnistDataset;
import fsil.data.sets.glyphs.GlyphsDataset;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The acceptance measurements of data/DATA.md: nearest-class-mean accuracy on raw pixels versus pretrained-mlp
 * features (glyphs: 5-way 1-shot episodes on the evaluation scripts; Fashion-MNIST: the test set), plus the
 * generation and training times. NCM is computed inline (Euclidean distance to class means), independent of the
 * baselines module. Run:
 * {@code mvn -q -pl eval -am test -Pslow -Dtest=DataAcceptanceExperiment -Dsurefire.failIfNoSpecifiedTests=false}
 * (system property {@code fsil.acceptance.cache} selects the cache directory; default: a fresh temporary one, so
 * the times are cold).
 */
@Tag("slow")
class DataAcceptanceExperiment {
    static final int EPISODES = 1000;
    static final int WAYS = 5;
    static final int SHOTS = 1;
    static final int QUERIES_PER_CLASS = 10;

    private static Path cache() throws Exception {
        String p = System.getProperty("fsil.acceptance.cache");
        return p != null ? Path.of(p) : Files.createTempDirectory("fsil-acceptance");
    }

    /** Mean accuracy and 95% half-width (1.96 std / sqrt(n), ddof 0) of NCM over few-shot episodes on novel classes. */
    static double[] episodes(FeatureSet fs, long seed) {
        LabeledData train = fs.train();
        int[] novel = fs.splits().novel();
        List<int[]> byClass = new ArrayList<>();
        int maxLabel = Arrays.stream(train.labels()).max().orElse(0);
        List<List<Integer>> idx = new ArrayList<>();
        for (int c = 0; c <= maxLabel; c++) {
            idx.add(new ArrayList<>());
        }
        for (int i = 0; i < train.size(); i++) {
            idx.get(train.labels()[i]).add(i);
        }
        for (int c : novel) {
            byClass.add(idx.get(c).stream().mapToInt(Integer::intValue).toArray());
        }
        FeatureMatrix x = train.features();
        int d = x.cols();
        double[] acc = new double[EPISODES];
        double[][] means = new double[WAYS][d];
        for (int e = 0; e < EPISODES; e++) {
            UniformRandomProvider rng = RandomStreams.child(seed, e);
            int[] classes = Arrays.copyOf(RandomStreams.permutation(novel.length, rng), WAYS);
            int[][] samples = new int[WAYS][];
            for (int w = 0; w < WAYS; w++) {
                int[] s = byClass.get(classes[w]).clone();
                RandomStreams.shuffle(s, rng);
                samples[w] = s;
                Arrays.fill(means[w], 0);
                for (int k = 0; k < SHOTS; k++) {
                    for (int j = 0; j < d; j++) {
                        means[w][j] += x.get(s[k], j) / SHOTS;
                    }
                }
            }
            int correct = 0;
            int total = 0;
            for (int w = 0; w < WAYS; w++) {
                for (int q = SHOTS; q < SHOTS + QUERIES_PER_CLASS; q++) {
                    int row = samples[w][q];
                    correct += nearest(x, row, means) == w ? 1 : 0;
                    total++;
                }
            }
            acc[e] = correct / (double) total;
        }
        double mean = Arrays.stream(acc).average().orElse(0);
        double var = Arrays.stream(acc).map(a -> (a - mean) * (a - mean)).sum() / EPISODES;
        return new double[]{mean, 1.96 * Math.sqrt(var / EPISODES)};
    }

    static int nearest(FeatureMatrix x, int row, double[][] means) {
        int best = -1;
        double bestD = Double.POSITIVE_INFINITY;
        int d = x.cols();
        for (int w = 0; w < means.length; w++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                double t = x.get(row, j) - means[w][j];
                s += t * t;
            }
            if (s < bestD) {
                bestD = s;
                best = w;
            }
        }
        return best;
    }

    /** NCM accuracy on the test samples of {@code classes}, class means from all their training samples. */
    static double ncmTest(FeatureSet fs, int[] classes) {
        int d = fs.dimension();
        double[][] means = new double[classes.length][d];
        int[] count = new int[classes.length];
        int[] pos = new int[fs.classes().size()];
        Arrays.fill(pos, -1);
        for (int k = 0; k < classes.length; k++) {
            pos[classes[k]] = k;
        }
        FeatureMatrix xt = fs.train().features();
        for (int i = 0; i < fs.train().size(); i++) {
            int k = pos[fs.train().labels()[i]];
            if (k >= 0) {
                count[k]++;
                for (int j = 0; j < d; j++) {
                    means[k][j] += xt.get(i, j);
                }
            }
        }
        for (int k = 0; k < classes.length; k++) {
            for (int j = 0; j < d; j++) {
                means[k][j] /= count[k];
            }
        }
        FeatureMatrix xs = fs.test().features();
        int correct = 0;
        int total = 0;
        for (int i = 0; i < fs.test().size(); i++) {
            int k = pos[fs.test().labels()[i]];
            if (k >= 0) {
                correct += nearest(xs, i, means) == k ? 1 : 0;
                total++;
            }
        }
        return correct / (double) total;
    }

    @Test
    void glyphsFewShotFeaturesBeatPixels() throws Exception {
        assumeTrue(GlyphsDataset.missing() == null, GlyphsDataset.missing());
        Path cache = cache();
        long t0 = System.nanoTime();
        FeatureSet raw = Datasets.load("glyphs", "identity", 0, cache);
        double genSeconds = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        FeatureSet mlp = Datasets.load("glyphs", "pretrained-mlp", 0, cache);
        double trainSeconds = (System.nanoTime() - t0) / 1e9;
        double[] a = episodes(raw, 2024);
        double[] b = episodes(mlp, 2024);
        System.out.printf("glyphs: %d classes (%d base / %d validation / %d novel), %d train + %d test images%n",
                raw.classes().size(), raw.splits().base().length, raw.splits().validation().length,
                raw.splits().novel().length, raw.train().size(), raw.test().size());
        System.out.printf("glyphs: generation (or cache load) %.1f s; pretrained-mlp %s training + features %.1f s%n",
                genSeconds, mlp.backbone(), trainSeconds);
        System.out.printf("glyphs NCM %d-way %d-shot, %d queries/class, %d episodes on evaluation scripts:"
                + " raw pixels %.2f%% +- %.2f, pretrained-mlp %.2f%% +- %.2f%n", WAYS, SHOTS, QUERIES_PER_CLASS,
                EPISODES, 100 * a[0], 100 * a[1], 100 * b[0], 100 * b[1]);
        assertTrue(b[0] > a[0] + 0.05, "features must clearly beat pixels");
    }

    @Test
    void fashionMnistNcmFeaturesBeatPixels() throws Exception {
        assumeTrue(FashionMnistDataset.missing() == null, FashionMnistDataset.missing());
        Path cache = cache();
        FeatureSet raw = Datasets.load("fashion-mnist", "identity", 0, cache);
        long t0 = System.nanoTime();
        FeatureSet mlp = Datasets.load("fashion-mnist", "pretrained-mlp", 0, cache);
        double trainSeconds = (System.nanoTime() - t0) / 1e9;
        int[] all = java.util.stream.IntStream.range(0, 10).toArray();
        int[] novel = raw.splits().novel();
        System.out.printf("fashion-mnist: pretrained-mlp %s training (5 base classes, 30,000 images) + features"
                + " %.1f s%n", mlp.backbone(), trainSeconds);
        double rawAll = ncmTest(raw, all);
        double mlpAll = ncmTest(mlp, all);
        double rawNovel = ncmTest(raw, novel);
        double mlpNovel = ncmTest(mlp, novel);
        System.out.printf("fashion-mnist NCM test accuracy, 10 classes: raw pixels %.2f%%, pretrained-mlp %.2f%%%n",
                100 * rawAll, 100 * mlpAll);
        System.out.printf("fashion-mnist NCM test accuracy, 5 novel classes %s: raw pixels %.2f%%, pretrained-mlp"
                + " %.2f%%%n", Arrays.toString(novel), 100 * rawNovel, 100 * mlpNovel);
        assertTrue(mlpAll > rawAll, "features must beat pixels on all classes");
    }
}
