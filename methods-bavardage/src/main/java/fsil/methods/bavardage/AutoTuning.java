package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.FsilException;
import fsil.api.InvalidParameterException;
import fsil.api.LabeledData;
import fsil.api.Params;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code auto} preset: chooses T_vb and s_max for the data at hand on labelled episodes drawn from the base
 * classes (the only labelled data a method may see), as the paper tunes them on validation classes (§6.3).
 *
 * <p>Scheme (module README, "The auto preset"):
 * <ol>
 *   <li><b>Held-out base classes.</b> The tuning episodes must not come from the classes whose rows built the
 *   S_w they are whitened with, or the whitening fits them better than it fits novel classes. With at least
 *   {@code ways + 3} base classes, a seeded quarter of them (at least {@code ways}) is held out: the tuning S_w and
 *   base mean come from the other classes, the episodes from the held-out ones. With fewer base classes (a
 *   dataset with 5 base classes) every class is split by rows instead, half for S_w, half for the episodes: the
 *   episodes then come from classes that S_w has seen (a documented bias).</li>
 *   <li><b>Scale-free grid.</b> The candidates are T_vb = tau * precision and s_max = varsigma * gain
 *   ({@link ScatterScales}), with (tau, varsigma) from a fixed log-scale grid. The scales are those of the tuning
 *   statistics during the tuning and those of the full base statistics for the learner, so the change of scale
 *   between the tuning S_w (fewer classes or half the rows) and the full S_w is accounted for exactly (BAVARDAGE
 *   is equivariant to the scale of S_w).</li>
 *   <li><b>Episodes.</b> {@value #DEFAULT_EPISODES} seeded episodes, {@code ways}-way, alternating 1 and 5 shots,
 *   Q = 75 queries, balanced for {@code mixture=balanced} and Dirichlet(2) proportions for the unbalanced
 *   mixture (each class capped by its rows), every candidate on the same episodes. The highest mean accuracy
 *   wins unless other candidates are indistinguishable from it on these episodes (paired 95% interval); then the
 *   one nearest to the default point wins ({@link #selectNearest}). With {@code auto_rule=plateau} each
 *   candidate is scored by the worst accuracy at its T_vb or any larger one instead, which makes the choice
 *   depend much less on the tuning episodes ({@link #selectPlateau}).</li>
 * </ol>
 * Everything is a function of the base data, the parameters and {@link Background#seed()}. When no episode can be
 * drawn (fewer than two classes with enough rows for the split) or the tuning rows have no within-class spread,
 * the scale-free defaults tau = {@value #DEFAULT_TAU}, varsigma = {@value #DEFAULT_VARSIGMA} are used without
 * tuning ({@code auto_tuned} = 0 in the diagnostics). Base rows without any within-class spread give no scale at
 * all: a clear {@link FsilException}.
 */
public final class AutoTuning {
    /** Number of tuning episodes. */
    public static final int DEFAULT_EPISODES = 100;
    /** Scale-free T_vb used when nothing can be tuned. */
    public static final double DEFAULT_TAU = 8;
    /** Scale-free s_max used when nothing can be tuned. */
    public static final double DEFAULT_VARSIGMA = 1;
    /** Fewest base classes left to estimate S_w when classes are held out. */
    static final int MIN_FIT_CLASSES = 3;
    private static final double DIRICHLET_ALPHA = 2;

    private AutoTuning() {
    }

    /** How the base classes are used for tuning. */
    public enum Split {
        /** held-out classes for the episodes, the rest for S_w (enough base classes) */
        CLASSES,
        /** every class split by rows, half for S_w, half for the episodes (few base classes) */
        ROWS,
        /** nothing could be drawn: defaults */
        NONE
    }

    /**
     * What the tuning does.
     *
     * @param episodes  tuning episodes
     * @param ways      classes per episode (fewer when the pool has fewer)
     * @param queries   queries per episode (capped by the rows of the classes)
     * @param shots     shots, cycled over the episodes
     * @param tau       scale-free T_vb values (T_vb = tau * precision)
     * @param varsigma  scale-free s_max values (s_max = varsigma * gain)
     * @param split     null = by the number of base classes; or force a split (experiments)
     */
    public record Options(int episodes, int ways, int queries, int[] shots, double[] tau, double[] varsigma,
                          Split split) {
        public Options {
            if (episodes < 1 || ways < 2 || queries < 1 || shots.length == 0 || tau.length == 0
                    || varsigma.length == 0) {
                throw new InvalidParameterException("auto tuning needs >= 1 episode, >= 2 ways, >= 1 query and "
                        + "non-empty shot and grid lists");
            }
            shots = shots.clone();
            tau = tau.clone();
            varsigma = varsigma.clone();
        }

        /** The defaults of the {@code auto} preset. */
        public static Options defaults() {
            return new Options(DEFAULT_EPISODES, 5, 75, new int[]{1, 5}, new double[]{0.5, 2, 8, 32, 128},
                    new double[]{0.25, 1, 4}, null);
        }
    }

    /**
     * One grid point.
     *
     * @param tau      scale-free T_vb
     * @param varsigma scale-free s_max
     * @param accuracy mean accuracy over the tuning episodes
     * @param ci95     1.96 std / sqrt(episodes)
     */
    public record Candidate(double tau, double varsigma, double accuracy, double ci95) {
    }

    /**
     * The outcome.
     *
     * @param config      the configuration of the learner (chosen values in place)
     * @param tuned       whether a tuning ran (false: explicit values, or the fallback defaults)
     * @param tunedTVb    whether T_vb was chosen by auto (explicit t_vb or a named preset: false)
     * @param tunedSMax   whether s_max was chosen by auto
     * @param split       how the base classes were used
     * @param tau         chosen scale-free T_vb (NaN when T_vb was not chosen)
     * @param varsigma    chosen scale-free s_max (NaN when s_max was not chosen)
     * @param scales      scales of the full base statistics (null when nothing was chosen)
     * @param episodes    tuning episodes
     * @param ways        classes of the tuning episodes
     * @param candidates  every grid point, in grid order (tau outer, varsigma inner)
     * @param seconds     wall time of the choice (scales, split statistics, episodes)
     */
    public record Choice(BavardageConfig config, boolean tuned, boolean tunedTVb, boolean tunedSMax, Split split,
                         double tau, double varsigma, ScatterScales scales, int episodes, int ways,
                         List<Candidate> candidates, double seconds) {

        /** The chosen candidate's tuning accuracy (NaN without tuning). */
        public double accuracy() {
            return candidates.stream()
                    .filter(c -> Double.compare(c.tau(), tau) == 0 && Double.compare(c.varsigma(), varsigma) == 0)
                    .mapToDouble(Candidate::accuracy).findFirst().orElse(Double.NaN);
        }

        /** Numbers for the session diagnostics (empty when auto chose nothing). */
        public Map<String, Double> diagnostics() {
            if (!tunedTVb && !tunedSMax) {
                return Map.of();
            }
            Map<String, Double> m = new LinkedHashMap<>();
            if (tunedTVb) {
                m.put("auto_t_vb", config.tVb());
            }
            if (tunedSMax) {
                m.put("auto_s_max", config.sMax());
            }
            m.put("auto_tuned", tuned ? 1.0 : 0.0);
            if (tuned) {
                m.put("auto_tuning_acc", accuracy());
            }
            return java.util.Collections.unmodifiableMap(m);
        }

        /** The parameters that pin these values (as text: t_vb, s_max), to reuse without tuning. */
        public Map<String, String> pinned() {
            Map<String, String> m = new LinkedHashMap<>();
            if (tunedTVb) {
                m.put("t_vb", Double.toString(config.tVb()));
            }
            if (tunedSMax) {
                m.put("s_max", Double.toString(config.sMax()));
            }
            return m;
        }
    }

    /** Chooses the values for {@code params} on the base classes of {@code background} (default options). */
    public static Choice choose(Params params, Background background) {
        return choose(params, background, Options.defaults());
    }

    /** As {@link #choose(Params, Background)} with other options. */
    public static Choice choose(Params params, Background background, Options options) {
        Preprocessing kind = params.get(BavardageMethod.PREPROCESSING);
        return choose(params, background, BaseStatistics.fromBase(background.base(), kind), options);
    }

    /**
     * @param full statistics of all base rows (the learner's)
     */
    static Choice choose(Params params, Background background, BaseStatistics full, Options options) {
        long t0 = System.nanoTime();
        Variant variant = params.get(BavardageMethod.VARIANT);
        boolean auto = params.get(BavardageMethod.PRESET) == Preset.AUTO;
        boolean chooseTVb = auto && params.get(BavardageMethod.T_VB) == 0 && variant != Variant.SOFTKMEANS;
        boolean chooseSMax = auto && params.get(BavardageMethod.S_MAX) == 0 && variant == Variant.BAVARDAGE;
        if (!chooseTVb && !chooseSMax) {
            return new Choice(BavardageConfig.from(params), false, false, false, Split.NONE, Double.NaN, Double.NaN,
                    null, 0, 0, List.of(), seconds(t0));
        }
        ScatterScales scales = ScatterScales.of(background.base(), full, variant);
        if (!scales.usable()) {
            throw new FsilException("preset=auto sets T_vb and s_max relative to the within-class spread of the "
                    + "base classes, but the base rows have none (no class has two different samples); give "
                    + "t_vb and s_max or a named preset");
        }
        double[] taus = chooseTVb ? options.tau() : new double[]{Double.NaN};
        double[] sigmas = chooseSMax ? options.varsigma() : new double[]{Double.NaN};
        boolean balanced = BavardageConfig.from(params, 1, 1).balanced();
        Tuning tuning = Tuning.of(background, full.kind(), variant, balanced, options);
        if (tuning == null) {
            double tau = chooseTVb ? DEFAULT_TAU : Double.NaN;
            double vs = chooseSMax ? DEFAULT_VARSIGMA : Double.NaN;
            return new Choice(config(params, scales, tau, vs), false, chooseTVb, chooseSMax, Split.NONE, tau, vs,
                    scales, 0, 0, List.of(), seconds(t0));
        }
        List<BavardageConfig> configs = new ArrayList<>();
        for (double tau : taus) {
            for (double vs : sigmas) {
                configs.add(config(params, tuning.scales(), tau, vs));
            }
        }
        double[][] acc = EpisodeAccuracy.accuracies(tuning.stats(), configs, tuning.episodes(), Runnable::run);
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            candidates.add(new Candidate(taus[i / sigmas.length], sigmas[i % sigmas.length],
                    EpisodeAccuracy.mean(acc[i]), EpisodeAccuracy.ci95(acc[i])));
        }
        int chosen = select(params.get(BavardageMethod.AUTO_RULE), acc, taus, sigmas);
        double tau = taus[chosen / sigmas.length];
        double vs = sigmas[chosen % sigmas.length];
        return new Choice(config(params, scales, tau, vs), true, chooseTVb, chooseSMax, tuning.split(), tau, vs,
                scales, tuning.episodes().size(), tuning.ways(), List.copyOf(candidates), seconds(t0));
    }

    /** The chosen candidate's index under {@code rule} ({@link #selectNearest}, {@link #selectPlateau}). */
    static int select(BavardageMethod.AutoRule rule, double[][] acc, double[] taus, double[] sigmas) {
        return rule == BavardageMethod.AutoRule.PLATEAU ? selectPlateau(acc, taus, sigmas)
                : selectNearest(acc, taus, sigmas);
    }

    /**
     * The {@code nearest} selection rule (the default): the candidate with the highest mean accuracy, unless
     * others are statistically indistinguishable from it on the same episodes (paired difference below 1.96
     * standard errors); then the one of those nearest to the default point (tau {@value #DEFAULT_TAU}, varsigma
     * {@value #DEFAULT_VARSIGMA}) in log distance, ties to the earlier grid point. The landscape is flat over large
     * regions (T_vb beyond a few times the reference makes the assignments hard and the accuracy stops changing),
     * where the highest mean is decided by noise and would wander to the grid's edges from one seed to the next.
     *
     * @param acc [candidate][episode] accuracies, candidates in grid order (tau outer)
     * @return index of the chosen candidate
     */
    static int selectNearest(double[][] acc, double[] taus, double[] sigmas) {
        int best = 0;
        for (int i = 1; i < acc.length; i++) {
            if (EpisodeAccuracy.mean(acc[i]) > EpisodeAccuracy.mean(acc[best])) {
                best = i;
            }
        }
        int chosen = best;
        double chosenDistance = Double.POSITIVE_INFINITY;
        for (int i = 0; i < acc.length; i++) {
            double[] diff = new double[acc[i].length];
            for (int e = 0; e < diff.length; e++) {
                diff[e] = acc[best][e] - acc[i][e];
            }
            if (EpisodeAccuracy.mean(diff) > EpisodeAccuracy.ci95(diff)) {
                continue; // significantly worse than the best
            }
            double distance = logDistance(taus[i / sigmas.length], DEFAULT_TAU)
                    + logDistance(sigmas[i % sigmas.length], DEFAULT_VARSIGMA);
            if (distance < chosenDistance) {
                chosenDistance = distance;
                chosen = i;
            }
        }
        return chosen;
    }

    /**
     * The {@code plateau} selection rule ({@code auto_rule=plateau}). The tuning landscape falls steeply below some
     * T_vb (and s_max) and is flat above it (large T_vb makes the assignments hard and the accuracy stops
     * changing); on the base-class episodes of digits the highest mean sits at the lower edge of that plateau,
     * where novel-class episodes already lose 1.3-1.7 points, and which grid point is highest there changes with
     * the tuning episodes. So:
     * <ol>
     *   <li>each candidate is scored by its <em>floor</em>: the worst mean accuracy at its varsigma and its tau or
     *   any larger tau (ties to the earlier grid point), so that a plateau's edge scores no better than its
     *   interior;</li>
     *   <li>the candidates whose floor is not significantly below the best floor on the same episodes (paired
     *   difference below 1.96 standard errors) are ties; among their tau values the one nearest to the default
     *   {@value #DEFAULT_TAU} in log distance wins (equal distances: the larger);</li>
     *   <li>at that tau, varsigma the same way along its own axis: among the tied candidates, the highest worst
     *   mean at that varsigma or a larger one (equal: the varsigma nearest to the default
     *   {@value #DEFAULT_VARSIGMA}).</li>
     * </ol>
     * An axis that is not chosen (NaN) takes no part.
     *
     * @param acc [candidate][episode] accuracies, candidates in grid order (tau outer)
     * @return index of the chosen candidate
     */
    static int selectPlateau(double[][] acc, double[] taus, double[] sigmas) {
        int n = acc.length;
        int k = sigmas.length;
        double[] mean = new double[n];
        for (int i = 0; i < n; i++) {
            mean[i] = EpisodeAccuracy.mean(acc[i]);
        }
        int[] floor = new int[n];
        for (int i = 0; i < n; i++) {
            int worst = -1;
            for (int j = 0; j < n; j++) {
                boolean above = j % k == i % k && !(taus[j / k] < taus[i / k]); // NaN: the same (only) tau
                if (above && (worst < 0 || mean[j] < mean[worst])) {
                    worst = j;
                }
            }
            floor[i] = worst;
        }
        int best = 0;
        for (int i = 1; i < n; i++) {
            if (mean[floor[i]] > mean[floor[best]]) {
                best = i;
            }
        }
        boolean[] tied = new boolean[n];
        int tau = -1;
        for (int i = 0; i < n; i++) {
            double[] diff = new double[acc[i].length];
            for (int e = 0; e < diff.length; e++) {
                diff[e] = acc[floor[best]][e] - acc[floor[i]][e];
            }
            tied[i] = !(EpisodeAccuracy.mean(diff) > EpisodeAccuracy.ci95(diff));
            if (tied[i]) {
                int t = i / k;
                if (tau < 0) {
                    tau = t;
                    continue;
                }
                double d = logDistance(taus[t], DEFAULT_TAU);
                double dChosen = logDistance(taus[tau], DEFAULT_TAU);
                if (d < dChosen || d == dChosen && taus[t] > taus[tau]) {
                    tau = t;
                }
            }
        }
        // varsigma at that tau: the same floor along varsigma (the worst mean at this varsigma or a larger one)
        int chosen = -1;
        double chosenFloor = Double.NaN;
        for (int i = tau * k; i < (tau + 1) * k; i++) {
            if (!tied[i]) {
                continue;
            }
            double f = Double.POSITIVE_INFINITY;
            for (int j = tau * k; j < (tau + 1) * k; j++) {
                if (!(sigmas[j % k] < sigmas[i % k])) {
                    f = Math.min(f, mean[j]);
                }
            }
            if (chosen < 0 || f > chosenFloor || f == chosenFloor
                    && logDistance(sigmas[i % k], DEFAULT_VARSIGMA) < logDistance(sigmas[chosen % k],
                    DEFAULT_VARSIGMA)) {
                chosen = i;
                chosenFloor = f;
            }
        }
        return chosen;
    }

    /** |ln a - ln b|, 0 for a value that is not chosen (NaN). */
    private static double logDistance(double a, double b) {
        return Double.isNaN(a) ? 0 : Math.abs(Math.log(a / b));
    }

    private static BavardageConfig config(Params params, ScatterScales s, double tau, double varsigma) {
        return BavardageConfig.from(params, Double.isNaN(tau) ? Double.NaN : s.tVb(tau),
                Double.isNaN(varsigma) ? Double.NaN : s.sMax(varsigma));
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) * 1e-9;
    }

    /** Statistics, scales and episodes of the tuning. */
    record Tuning(Split split, BaseStatistics stats, ScatterScales scales, List<LabeledEpisode> episodes, int ways) {

        /** null when no episode can be drawn or the tuning rows have no within-class spread. */
        static Tuning of(Background background, Preprocessing kind, Variant variant, boolean balanced, Options o) {
            LabeledData base = background.base();
            int[][] byClass = WithinClassScatter.groups(base.labels());
            long seed = RandomStreams.derive(background.seed(), "bavardage-auto");
            UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "split"));
            int[] eligible = java.util.stream.IntStream.range(0, byClass.length)
                    .filter(c -> byClass[c].length >= 2).toArray();
            Split split = o.split() != null ? o.split()
                    : eligible.length >= o.ways() && byClass.length - o.ways() >= MIN_FIT_CLASSES ? Split.CLASSES
                    : Split.ROWS;
            List<Integer> fitRows = new ArrayList<>();
            List<int[]> pool = new ArrayList<>();
            if (split == Split.CLASSES) {
                int[] order = eligible.clone();
                RandomStreams.shuffle(order, rng);
                int held = Math.min(byClass.length - MIN_FIT_CLASSES,
                        Math.max(o.ways(), (int) Math.ceil(byClass.length / 4.0)));
                held = Math.min(held, order.length);
                if (held < 2 || byClass.length - held < 1) {
                    return null;
                }
                boolean[] isHeld = new boolean[byClass.length];
                for (int i = 0; i < held; i++) {
                    isHeld[order[i]] = true;
                }
                for (int c = 0; c < byClass.length; c++) {
                    if (isHeld[c]) {
                        pool.add(byClass[c]);
                    } else {
                        for (int r : byClass[c]) {
                            fitRows.add(r);
                        }
                    }
                }
            } else {
                for (int[] rows : byClass) {
                    int[] perm = rows.clone();
                    RandomStreams.shuffle(perm, rng);
                    int half = perm.length / 2;
                    // the S_w half gets the odd row; a class with a single row only feeds S_w
                    for (int i = half; i < perm.length; i++) {
                        fitRows.add(perm[i]);
                    }
                    if (half >= 2) {
                        int[] p = Arrays.copyOf(perm, half);
                        Arrays.sort(p);
                        pool.add(p);
                    }
                }
            }
            if (pool.size() < 2 || fitRows.isEmpty()) {
                return null;
            }
            LabeledData fit = base.select(fitRows.stream().mapToInt(Integer::intValue).sorted().toArray());
            BaseStatistics stats = BaseStatistics.fromBase(fit, kind);
            ScatterScales scales = ScatterScales.of(fit, stats, variant);
            if (!scales.usable()) {
                return null;
            }
            int ways = Math.min(o.ways(), pool.size());
            List<LabeledEpisode> episodes = AutoTuning.episodes(base, pool, ways, o, balanced, seed);
            return new Tuning(split, stats, scales, episodes, ways);
        }
    }

    /**
     * Seeded tuning episodes from the per-class row pools, drawn by core's {@link EpisodeSampler} as the few-shot
     * protocol draws its episodes: balanced (up to Q/K queries per class) or Dirichlet(2) query counts.
     */
    static List<LabeledEpisode> episodes(LabeledData base, List<int[]> pool, int ways, Options o, boolean balanced,
                                         long seed) {
        List<LabeledEpisode> out = new ArrayList<>(o.episodes());
        int[] ids = java.util.stream.IntStream.range(0, pool.size()).toArray();
        EpisodeSampler sampler = new EpisodeSampler(ids, pool.toArray(new int[0][]));
        int minRows = pool.stream().mapToInt(r -> r.length).min().orElse(0);
        for (int e = 0; e < o.episodes(); e++) {
            UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(RandomStreams.derive(seed,
                    "episodes"), e));
            int shots = Math.min(o.shots()[e % o.shots().length], minRows - 1);
            EpisodeSampler.Queries queries = balanced ? EpisodeSampler.Queries.upTo(o.queries() / ways)
                    : EpisodeSampler.Queries.dirichlet(o.queries(), DIRICHLET_ALPHA);
            EpisodeSampler.Episode ep = sampler.sample(rng, ways, shots, queries);
            if (ep == null) {
                continue; // no Dirichlet counts these classes allow
            }
            out.add(LabeledEpisode.of(base, ep));
        }
        return out;
    }
}
