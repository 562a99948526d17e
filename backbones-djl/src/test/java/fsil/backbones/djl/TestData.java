package fsil.backbones.djl;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.apache.commons.rng.UniformRandomProvider;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The embedded digits (8x8) with base, validation and novel classes, and NCM scores on features. */
final class TestData {
    static final int[] BASE = {0, 2, 4, 6, 7};
    static final int[] VALIDATION = {1, 3};
    static final int[] NOVEL = {5, 8, 9};

    private TestData() {
    }

    /** digits with base {0,2,4,6,7}, validation {1,3}, novel {5,8,9}. */
    static RawDataset digits(Path cache) {
        RawDataset raw = Datasets.loadRaw("digits", cache);
        return new RawDataset(raw.name() + "+validation-1-3", raw.classes(), raw.train(), raw.test(),
                new SplitSet(BASE, VALIDATION, NOVEL, Optional.empty()), raw.images());
    }

    /** The rows of {@code data} whose label is in {@code classes}. */
    static int[] rowsOf(LabeledData data, int[] classes) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            for (int c : classes) {
                if (data.labels()[i] == c) {
                    rows.add(i);
                }
            }
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Mean accuracy of nearest-class-mean (Euclidean) over {@code episodes} {@code classes.length}-way
     * {@code shots}-shot episodes of the novel classes' test samples (all remaining samples of a class are queries),
     * drawn with a fixed seed: the same episodes for every feature set of the same dataset.
     */
    static double ncmEpisodes(FeatureSet f, int[] classes, int shots, int episodes) {
        return ncmEpisodes(f, f.test().features(), classes, shots, episodes);
    }

    /** {@link #ncmEpisodes(FeatureSet, int[], int, int)} on test features {@code x}. */
    static double ncmEpisodes(FeatureSet f, FeatureMatrix x, int[] classes, int shots, int episodes) {
        LabeledData test = new LabeledData(x, f.test().labels());
        UniformRandomProvider rng = RandomStreams.create(20260101L);
        double sum = 0;
        for (int e = 0; e < episodes; e++) {
            sum += ncm(test, classes, shots, rng);
        }
        return sum / episodes;
    }

    /**
     * Mean NCM accuracy over {@code episodes} episodes of {@code ways} classes drawn from {@code classes} (fixed
     * seed), {@code shots} supports per class and every other sample of the class (train and test: the backbone never
     * saw these classes) as queries.
     */
    static double ncmRandomEpisodes(FeatureSet f, int[] classes, int ways, int shots, int episodes) {
        FeatureMatrix tr = f.train().features();
        FeatureMatrix te = f.test().features();
        float[] x = new float[(tr.rows() + te.rows()) * tr.cols()];
        System.arraycopy(tr.rawData(), 0, x, 0, tr.rawData().length);
        System.arraycopy(te.rawData(), 0, x, tr.rawData().length, te.rawData().length);
        int[] y = new int[tr.rows() + te.rows()];
        System.arraycopy(f.train().labels(), 0, y, 0, tr.rows());
        System.arraycopy(f.test().labels(), 0, y, tr.rows(), te.rows());
        LabeledData all = new LabeledData(FeatureMatrix.wrap(y.length, tr.cols(), x), y);
        UniformRandomProvider rng = RandomStreams.create(1993L);
        double sum = 0;
        for (int e = 0; e < episodes; e++) {
            int[] pick = classes.clone();
            RandomStreams.shuffle(pick, rng);
            sum += ncm(all, java.util.Arrays.copyOf(pick, ways), shots, rng);
        }
        return sum / episodes;
    }

    private static double ncm(LabeledData data, int[] classes, int shots, UniformRandomProvider rng) {
        FeatureMatrix x = data.features();
        int d = x.cols();
        int k = classes.length;
        double[][] means = new double[k][d];
        List<int[]> queries = new ArrayList<>();
        for (int w = 0; w < k; w++) {
            int[] members = rowsOf(data, new int[]{classes[w]});
            RandomStreams.shuffle(members, rng);
            for (int s = 0; s < shots; s++) {
                for (int j = 0; j < d; j++) {
                    means[w][j] += x.get(members[s], j) / shots;
                }
            }
            for (int q = shots; q < members.length; q++) {
                queries.add(new int[]{members[q], w});
            }
        }
        int correct = 0;
        for (int[] q : queries) {
            int best = 0;
            double bestDist = Double.POSITIVE_INFINITY;
            for (int w = 0; w < k; w++) {
                double dist = 0;
                for (int j = 0; j < d; j++) {
                    double diff = x.get(q[0], j) - means[w][j];
                    dist += diff * diff;
                }
                if (dist < bestDist) {
                    bestDist = dist;
                    best = w;
                }
            }
            correct += best == q[1] ? 1 : 0;
        }
        return correct / (double) queries.size();
    }
}
