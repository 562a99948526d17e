package fsil.methods.bavardage;

import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Accuracy of BAVARDAGE configurations on labelled episodes: the evaluation behind the {@code auto} preset's choice
 * of T_vb and s_max ({@link AutoTuning}), and the helpers the tests and the {@code bavardage-episodes} benchmark use
 * to score a learner on such episodes. Hyperparameter selection on validation classes is
 * {@code fsil run --select 'bavardage.t_vb=...'} (module README).
 */
final class EpisodeAccuracy {
    private EpisodeAccuracy() {
    }

    /**
     * Accuracy of every configuration on every episode ([configuration][episode]), all with the same base
     * statistics. Configurations that differ only in what {@link BavardageSolver#finish} uses (T_vb, s_max, the VB
     * settings) share one {@link BavardageSolver#prepare} per episode, so a T_vb x s_max grid costs little more
     * than one configuration. Each episode is one job on {@code executor}; the numbers do not depend on it.
     */
    static double[][] accuracies(BaseStatistics stats, List<BavardageConfig> configs, List<LabeledEpisode> episodes,
                                 Executor executor) {
        Map<BavardageSolver.PrepKey, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < configs.size(); i++) {
            groups.computeIfAbsent(BavardageSolver.PrepKey.of(configs.get(i)), k -> new ArrayList<>()).add(i);
        }
        double[][] acc = new double[configs.size()][episodes.size()];
        for (List<Integer> members : groups.values()) {
            List<BavardageConfig> group = members.stream().map(configs::get).toList();
            BavardageSolver solver = new BavardageSolver(group.get(0), stats);
            List<CompletableFuture<double[]>> futures = new ArrayList<>(episodes.size());
            for (LabeledEpisode ep : episodes) {
                futures.add(CompletableFuture.supplyAsync(() -> scores(solver, group, ep), executor));
            }
            for (int e = 0; e < episodes.size(); e++) {
                double[] s = futures.get(e).join();
                for (int j = 0; j < s.length; j++) {
                    acc[members.get(j)][e] = s[j];
                }
            }
        }
        return acc;
    }

    /** Accuracy of each configuration on one episode, through the same code as a session's prediction. */
    private static double[] scores(BavardageSolver solver, List<BavardageConfig> configs, LabeledEpisode ep) {
        LabeledData support = ep.support();
        int[] classes = support.classes();
        int[] supportClass = BavardageSession.classIndices(support.labels(), classes);
        int ns = support.size();
        int nq = ep.queries().rows();
        double[] out = new double[configs.size()];
        if (nq == 0) {
            Arrays.fill(out, 1);
            return out;
        }
        BavardageSolver.Prepared prepared = solver.prepare(support.features().rawData(), ns, supportClass,
                classes.length, ep.queries().rawData(), nq);
        for (int j = 0; j < out.length; j++) {
            BavardageSolver.Result r = BavardageSolver.finish(prepared, configs.get(j));
            out[j] = ep.accuracy(BavardageSession.prediction(classes, r, ns, nq).labels());
        }
        return out;
    }

    /** Accuracy of every episode, in order. */
    static double[] evaluate(Learner learner, List<LabeledEpisode> episodes) {
        double[] acc = new double[episodes.size()];
        for (int e = 0; e < acc.length; e++) {
            LabeledEpisode ep = episodes.get(e);
            Prediction p = learner.solve(ep.episode(), e);
            acc[e] = ep.accuracy(p.labels());
        }
        return acc;
    }

    /** Arithmetic mean. */
    static double mean(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s / a.length;
    }

    /** 1.96 std / sqrt(n) with the unbiased std, the usual few-shot 95% interval half-width (0 below 2 values). */
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
}
