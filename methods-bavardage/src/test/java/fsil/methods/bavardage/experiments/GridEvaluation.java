package fsil.methods.bavardage.experiments;

import fsil.api.Background;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.methods.bavardage.BavardageMethod;
import fsil.methods.bavardage.LabeledEpisode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What the development experiments of this package share: a grid of parameter values evaluated on labelled episodes
 * through the public method API (one learner per grid point, as {@code learner(params, background)} builds it, so an
 * {@code auto} preset left in the parameters chooses its values as in a run), and the data helpers.
 */
final class GridEvaluation {
    private static final BavardageMethod METHOD = new BavardageMethod();

    private GridEvaluation() {
    }

    /**
     * One evaluated grid point.
     *
     * @param values     the grid values of this point, in axis order
     * @param accuracy   mean episode accuracy
     * @param ci95       1.96 std / sqrt(episodes) with the unbiased std
     * @param perEpisode the accuracy of every episode, in order
     */
    record Point(Map<String, String> values, double accuracy, double ci95, double[] perEpisode) {
    }

    /**
     * Every combination of the axes (the Cartesian product, the last axis varying fastest) on top of {@code base},
     * each evaluated on the same episodes.
     */
    static List<Point> evaluate(Params base, Map<String, List<String>> axes, Background background,
                                List<LabeledEpisode> episodes) {
        List<Point> out = new ArrayList<>();
        for (Map<String, String> values : combinations(axes)) {
            Params p = base;
            for (Map.Entry<String, String> e : values.entrySet()) {
                p = p.withText(e.getKey(), e.getValue());
            }
            double[] acc = accuracies(METHOD.learner(p, background), episodes);
            out.add(new Point(values, mean(acc), ci95(acc), acc));
        }
        return out;
    }

    /** The grid's combinations in order, the last axis varying fastest. */
    static List<Map<String, String>> combinations(Map<String, List<String>> axes) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(Map.of());
        for (Map.Entry<String, List<String>> axis : axes.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> prefix : out) {
                for (String v : axis.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(prefix);
                    m.put(axis.getKey(), v);
                    next.add(Collections.unmodifiableMap(m));
                }
            }
            out = next;
        }
        return out;
    }

    /** Accuracy of every episode, each solved in a fresh session of {@code learner}. */
    static double[] accuracies(Learner learner, List<LabeledEpisode> episodes) {
        double[] acc = new double[episodes.size()];
        for (int e = 0; e < acc.length; e++) {
            LabeledEpisode ep = episodes.get(e);
            Prediction p = learner.solve(ep.episode(), e);
            acc[e] = ep.accuracy(p.labels());
        }
        return acc;
    }

    static double mean(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s / a.length;
    }

    static double ci95(double[] a) {
        int n = a.length;
        if (n < 2) {
            return 0;
        }
        double m = mean(a);
        double ss = 0;
        for (double v : a) {
            ss += (v - m) * (v - m);
        }
        return 1.96 * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
    }

    static int[] sorted(int[] a) {
        int[] c = a.clone();
        Arrays.sort(c);
        return c;
    }

    /** The rows of the given classes, grouped by class in ascending id order (as the protocols' background). */
    static LabeledData rowsOf(LabeledData d, int[] sortedClasses) {
        int[] rows = Arrays.stream(sortedClasses).flatMap(c -> IntStream.range(0, d.size())
                .filter(i -> d.labels()[i] == c)).toArray();
        return d.select(rows);
    }

    static LabeledData concat(LabeledData a, LabeledData b) {
        int d = a.dimension();
        float[] x = Arrays.copyOf(a.features().rawData(), (a.size() + b.size()) * d);
        System.arraycopy(b.features().rawData(), 0, x, a.size() * d, b.size() * d);
        int[] y = Arrays.copyOf(a.labels(), a.size() + b.size());
        System.arraycopy(b.labels(), 0, y, a.size(), b.size());
        return new LabeledData(FeatureMatrix.wrap(a.size() + b.size(), d, x), y);
    }
}
