package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.InvalidParameterException;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.LabeledData;
import fsil.api.Prediction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Hyperparameter selection on validation classes, as the paper does (§6.3, Fig. 5): every combination of a grid
 * of parameter values is run on the same labelled validation episodes, and the combination with the highest mean
 * episode accuracy wins (ties go to the earliest combination in grid order). The base statistics are computed
 * once per preprocessing kind and shared by all combinations.
 *
 * <p>Results do not depend on the executor: every combination is evaluated independently and the list is
 * assembled in grid order.
 */
public final class BavardageTuner {
    private final BavardageMethod method = new BavardageMethod();
    private final Background background;
    private final Executor executor;

    /** A tuner over the given base classes, evaluating in the calling thread. */
    public BavardageTuner(Background background) {
        this(background, Runnable::run);
    }

    private BavardageTuner(Background background, Executor executor) {
        this.background = Objects.requireNonNull(background);
        this.executor = Objects.requireNonNull(executor);
    }

    /** The same tuner evaluating grid combinations on {@code e} (results are identical). */
    public BavardageTuner withExecutor(Executor e) {
        return new BavardageTuner(background, e);
    }

    /** One parameter and the textual values to try. */
    public record Axis(String name, List<String> values) {
        public Axis {
            values = List.copyOf(values);
            if (values.isEmpty()) {
                throw new InvalidParameterException("grid axis '" + name + "' has no values");
            }
        }
    }

    /** An ordered grid: the Cartesian product of its axes, the last axis varying fastest. */
    public record Grid(List<Axis> axes) {
        public Grid {
            axes = List.copyOf(axes);
        }

        public static Grid of() {
            return new Grid(List.of());
        }

        /** This grid with one more axis. */
        public Grid axis(String name, String... values) {
            for (Axis a : axes) {
                if (a.name().equals(name)) {
                    throw new InvalidParameterException("grid axis '" + name + "' given twice");
                }
            }
            List<Axis> more = new ArrayList<>(axes);
            more.add(new Axis(name, List.of(values)));
            return new Grid(more);
        }

        /** Number of combinations. */
        public int size() {
            int s = 1;
            for (Axis a : axes) {
                s = Math.multiplyExact(s, a.values().size());
            }
            return s;
        }

        /** Combination {@code index} as name -> value, in axis order. */
        Map<String, String> combination(int index) {
            Map<String, String> out = new LinkedHashMap<>();
            int rest = index;
            int[] pick = new int[axes.size()];
            for (int i = axes.size() - 1; i >= 0; i--) {
                int m = axes.get(i).values().size();
                pick[i] = rest % m;
                rest /= m;
            }
            for (int i = 0; i < axes.size(); i++) {
                out.put(axes.get(i).name(), axes.get(i).values().get(pick[i]));
            }
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * One evaluated combination.
     *
     * @param values   the grid values of this combination
     * @param params   the full parameter set that was run
     * @param accuracy mean episode accuracy on the validation episodes
     * @param ci95     1.96 * std / sqrt(episodes) (unbiased std), the usual few-shot 95% interval half-width
     */
    public record Candidate(Map<String, String> values, Params params, double accuracy, double ci95) {
    }

    /** The winner and every candidate in grid order. */
    public record Result(Candidate best, List<Candidate> candidates) {
    }

    /**
     * Runs every grid combination on the validation episodes.
     *
     * <p>A combination that leaves values to the {@code auto} preset gets them as {@code learner(params,
     * background)} would: chosen on this tuner's base classes ({@link AutoTuning}), once per combination. Give a
     * named preset or explicit values to tune without that inner selection.
     *
     * @param base       parameters of the method for everything the grid does not vary
     * @param grid       parameters to vary (names and values as on the command line)
     * @param validation labelled episodes from validation classes (never the test classes)
     */
    public Result tune(Params base, Grid grid, List<LabeledEpisode> validation) {
        if (!base.methodId().equals(method.id())) {
            throw new InvalidParameterException("the tuner needs bavardage parameters, got parameters of '"
                    + base.methodId() + "'");
        }
        if (validation.isEmpty()) {
            throw new InvalidParameterException("the tuner needs at least one validation episode");
        }
        int size = grid.size();
        List<Params> params = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Params p = base;
            for (Map.Entry<String, String> e : grid.combination(i).entrySet()) {
                p = p.withText(e.getKey(), e.getValue());
            }
            params.add(p);
        }
        Map<Preprocessing, BaseStatistics> stats = new EnumMap<>(Preprocessing.class);
        Map<Preprocessing, List<Integer>> byKind = new EnumMap<>(Preprocessing.class);
        List<BavardageConfig> configs = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Params p = params.get(i);
            Preprocessing kind = p.get(BavardageMethod.PREPROCESSING);
            BaseStatistics s = stats.computeIfAbsent(kind, k -> BaseStatistics.fromBase(background.base(), k));
            configs.add(AutoTuning.choose(p, background, s, AutoTuning.Options.defaults()).config());
            byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(i);
        }
        double[][] acc = new double[size][];
        for (Map.Entry<Preprocessing, List<Integer>> e : byKind.entrySet()) {
            List<BavardageConfig> group = e.getValue().stream().map(configs::get).toList();
            double[][] a = accuracies(stats.get(e.getKey()), group, validation, executor);
            for (int j = 0; j < a.length; j++) {
                acc[e.getValue().get(j)] = a[j];
            }
        }
        List<Candidate> candidates = new ArrayList<>(size);
        Candidate best = null;
        for (int i = 0; i < size; i++) {
            Candidate c = new Candidate(grid.combination(i), params.get(i), mean(acc[i]), ci95(acc[i]));
            candidates.add(c);
            if (best == null || c.accuracy() > best.accuracy()) {
                best = c;
            }
        }
        return new Result(best, List.copyOf(candidates));
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
}
