package fsil.methods.lsgp;

import fsil.api.Background;
import fsil.api.Episode;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.bench.BenchResult;
import fsil.core.bench.EndToEndBenchmark;
import fsil.core.random.RandomStreams;
import fsil.core.synthetic.GaussianClasses;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Test-time cost of the logistic-softmax GP at equal accuracy: mean-field with the defaults (tolerance stop,
 * quadrature predictive; the reference), mean-field as it was before (20 steps, 1,000 Monte Carlo draws) and Gibbs
 * chains of the lengths given, measured round robin in the same run on the same synthetic 5-way 5-shot episodes
 * (Gaussian clusters, D = 64 by default; cosine kernel on the raw features, so the feature map costs nothing), with
 * learn (task inference) and predict (predictive + class probabilities) timed separately. Every row also reports its
 * accuracy over the episodes and its paired difference to the reference (95% intervals over episodes), so the Gibbs
 * chain that matches the reference's accuracy can be read off the same table.
 *
 * <p>Each repetition runs every variant on all episodes, in an order that rotates from repetition to repetition (the
 * reference runs first, then second, ...), so that a change of a shared machine's load hits every variant alike. A
 * variant's time relative to the reference is taken within each repetition (the same load period); the table gives
 * the median of these per-repetition ratios and their range over the repetitions ({@code ratio min},
 * {@code ratio max}), next to the median times.
 *
 * <p>Its parameters ({@code fsil bench} lists them) size the episodes and the repetitions and set the chains
 * ({@code gibbs}: comma-separated burn-in+kept sweeps, "none" for no chain, e.g. at mean=-5 where the chain cannot run;
 * the Gibbs chain cannot run at the paper's test mean -5 with tau = 0.2, see {@link GibbsSampler}).
 *
 * <p>Fidelity notes, on the first check_episodes (2) episodes with the reference settings: the largest distance of the
 * posterior means (latent units, every class and support point) and of the query probabilities from the mean-field
 * fixed point (the same iteration run to a change below 1e-12, at most fixed_steps = 5000 steps), for the default
 * tolerance stop and for 20 steps; and the largest error per probability of the quadrature predictive against a fine
 * rule of the same integral and against ref_draws (1,000,000) Monte Carlo draws (an independent stream), next to the
 * error of mc_samples Monte Carlo draws against the same reference.
 */
public final class LsgpInferenceBenchmark extends EndToEndBenchmark {
    static final String REFERENCE = "mean-field (ref.)";
    static final String PREVIOUS = "mean-field 20 steps, MC";
    static final Param<Integer> DIM = Param.integer("dim", 64, 2, 1_000_000, "feature dimension");
    static final Param<Integer> WAYS = Param.integer("ways", 5, 2, 10_000, "classes per episode");
    static final Param<Integer> SHOTS = Param.integer("shots", 5, 1, 10_000, "support samples per class");
    static final Param<Integer> QUERIES = Param.integer("queries", 75, 1, 1_000_000, "queries per episode (>= ways)");
    static final Param<Integer> EPISODES = Param.integer("episodes", 100, 1, 1_000_000,
            "episodes per timed repetition");
    static final Param<Integer> REPS = Param.integer("reps", 12, 1, 10_000, "timed repetitions, alternating variants");
    static final Param<Integer> WARMUPS = Param.integer("warmups", 1, 0, 10_000, "untimed warm-up repetitions");
    static final Param<Integer> MC_SAMPLES = Param.integer("mc_samples", 1000, 1, 100_000_000,
            "Monte Carlo draws of the 20-step variant's predictive");
    static final Param<String> GIBBS = Param.text("gibbs", "20+30,600+200",
            "Gibbs variants as burn-in+kept sweeps, comma-separated; none: no chain");
    static final Param<Double> TAU = Param.real("tau", 0.2, 1e-6, 1e6, "temperature of the logistic-softmax");
    static final Param<Double> MEAN = Param.real("mean", 0, -1e6, 1e6, "prior mean of the latent functions");
    static final Param<Integer> SEED = Param.integer("seed", 1, 0, Integer.MAX_VALUE, "episode seed");
    static final Param<Integer> CHECK_EPISODES = Param.integer("check_episodes", 2, 0, 1_000_000,
            "episodes of the fidelity checks");
    static final Param<Integer> REF_DRAWS = Param.integer("ref_draws", 1_000_000, 1, 1_000_000_000,
            "Monte Carlo draws of the fidelity reference");
    static final Param<Integer> FIXED_STEPS = Param.integer("fixed_steps", 5000, 1, 100_000_000,
            "most steps of the mean-field fixed point of the fidelity checks");

    public LsgpInferenceBenchmark() {
        super("lsgp-inference", "lsgp test-time cost at equal accuracy: mean-field (reference) vs 20 steps + Monte "
                + "Carlo vs Gibbs chains, 5-way 5-shot Q=75", List.of(DIM, WAYS, SHOTS, QUERIES, EPISODES, REPS,
                WARMUPS, MC_SAMPLES, GIBBS, TAU, MEAN, SEED, CHECK_EPISODES, REF_DRAWS, FIXED_STEPS));
    }

    @Override
    public BenchResult run(Params o) {
        int dim = o.get(DIM);
        int ways = o.get(WAYS);
        int shots = o.get(SHOTS);
        int queries = o.get(QUERIES);
        int episodes = o.get(EPISODES);
        int reps = o.get(REPS);
        int warmups = o.get(WARMUPS);
        long seed = o.get(SEED);
        String mc = o.text(MC_SAMPLES.name());
        String tau = o.text(TAU.name());
        String mean = o.text(MEAN.name());
        int checks = Math.min(o.get(CHECK_EPISODES), episodes);
        int refDraws = o.get(REF_DRAWS);
        int fixedSteps = o.get(FIXED_STEPS);
        if (ways < 2 || shots < 1 || queries < ways || episodes < 1 || reps < 1 || dim < 2) {
            throw new FsilException("need ways >= 2, shots >= 1, queries >= ways, episodes >= 1, reps >= 1, dim >= 2");
        }
        List<Episode> pool = new ArrayList<>();
        List<int[]> truth = new ArrayList<>();
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "lsgp-bench"));
        for (int e = 0; e < episodes; e++) {
            LabeledData[] ep = syntheticEpisode(rng, dim, ways, shots, queries / ways);
            pool.add(new Episode(ep[0], ep[1].features(), ways, shots, false));
            truth.add(ep[1].labels());
        }
        LsgpMethod m = new LsgpMethod();
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        variants.put(REFERENCE, Map.of());
        variants.put(PREVIOUS, Map.of("steps", "20", "tol", "0", "predictive", "monte-carlo"));
        String chains = o.get(GIBBS);
        for (String len : chains.equals("none") ? new String[0] : chains.split(",")) {
            String[] bs = len.trim().split("\\+");
            if (bs.length != 2) {
                throw new FsilException("gibbs lengths are burn-in+kept sweeps, e.g. 20+30,600+200; got '" + len + "'");
            }
            variants.put("gibbs " + bs[0] + "+" + bs[1], Map.of("inference", "gibbs", "gibbs_burnin", bs[0],
                    "gibbs_samples", bs[1]));
        }
        Map<String, Learner> learners = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> v : variants.entrySet()) {
            Map<String, String> p = new LinkedHashMap<>(v.getValue());
            p.put("meta_train", "false");
            p.put("mc_samples", mc);
            p.put("tau", tau);
            p.put("mean", mean);
            learners.put(v.getKey(), m.learner(m.params(p), Background.none(dim)));
        }
        Map<String, double[][]> times = new LinkedHashMap<>();
        Map<String, double[]> accuracy = new LinkedHashMap<>();
        Map<String, Double> steps = new LinkedHashMap<>();
        for (String k : learners.keySet()) {
            times.put(k, new double[2][reps]);
            accuracy.put(k, new double[episodes]);
        }
        List<Map.Entry<String, Learner>> order = new ArrayList<>(learners.entrySet());
        for (int r = -warmups; r < reps; r++) {
            int start = Math.floorMod(r, order.size());
            for (int i = 0; i < order.size(); i++) {
                Map.Entry<String, Learner> l = order.get((start + i) % order.size());
                long learnNs = 0;
                long predictNs = 0;
                double stepSum = 0;
                for (int e = 0; e < pool.size(); e++) {
                    Session s = l.getValue().newSession(SessionContext.forEpisode(pool.get(e), e));
                    long t0 = System.nanoTime();
                    s.learn(pool.get(e).support());
                    long t1 = System.nanoTime();
                    Prediction p = s.predict(pool.get(e).queries());
                    predictNs += System.nanoTime() - t1;
                    learnNs += t1 - t0;
                    int[] lab = p.labels();
                    int ok = 0;
                    for (int j = 0; j < lab.length; j++) {
                        ok += lab[j] == truth.get(e)[j] ? 1 : 0;
                    }
                    accuracy.get(l.getKey())[e] = ok / (double) lab.length;
                    stepSum += s.diagnostics().getOrDefault("mf_steps", Double.NaN);
                }
                steps.put(l.getKey(), stepSum / episodes);
                if (r >= 0) {
                    times.get(l.getKey())[0][r] = learnNs * 1e-9 / episodes;
                    times.get(l.getKey())[1][r] = predictNs * 1e-9 / episodes;
                }
            }
        }
        BenchResult.Builder table = BenchResult.builder(String.format(Locale.ROOT, "lsgp-inference: %d-way %d-shot, "
                        + "Q=%d, D=%d, tau=%s, mean=%s, mc_samples=%s, %d episodes per repetition, median of %d "
                        + "repetitions (round robin, order rotating), one thread", ways, shots, queries, dim, tau, mean,
                mc, episodes, reps), "variant", "learn ms", "predict ms", "total ms", "total/ref", "ratio min",
                "ratio max", "accuracy", "acc ci95", "diff vs ref", "diff ci95", "mf steps");
        double[] ref = accuracy.get(REFERENCE);
        double[][] refTimes = times.get(REFERENCE);
        for (String k : learners.keySet()) {
            double learn = median(times.get(k)[0]);
            double predict = median(times.get(k)[1]);
            double total = learn + predict;
            double[] ratio = new double[reps];
            for (int r = 0; r < reps; r++) {
                ratio[r] = (times.get(k)[0][r] + times.get(k)[1][r]) / (refTimes[0][r] + refTimes[1][r]);
            }
            double[] sorted = ratio.clone();
            java.util.Arrays.sort(sorted);
            double[] acc = accuracy.get(k);
            double[] diff = new double[episodes];
            for (int e = 0; e < episodes; e++) {
                diff[e] = acc[e] - ref[e];
            }
            double st = steps.get(k);
            table.row(k, learn * 1e3, predict * 1e3, total * 1e3, median(ratio), sorted[0], sorted[reps - 1],
                    meanOf(acc), ci95(acc), meanOf(diff), ci95(diff), Double.isNaN(st) ? "" : (Object) st);
        }
        if (checks > 0) {
            fidelity(table, (LsgpSession) learners.get(REFERENCE).newSession(SessionContext.forEpisode(pool.get(0), 0)),
                    pool, checks, refDraws, fixedSteps, seed);
        }
        return table.note("ms are per episode (median over the repetitions); total/ref = median over the repetitions of "
                + "the total relative to the first row's in the same repetition, ratio min/max = its range; "
                + "ci95 = 1.96 sd / sqrt(episodes); diff = paired accuracy difference to the first row; mf steps = "
                + "mean-field steps per episode").build();
    }

    /** The fidelity notes (see the class comment). */
    private static void fidelity(BenchResult.Builder table, LsgpSession reference, List<Episode> pool, int checks,
                                 int refDraws, int fixedSteps, long seed) {
        LsgpConfig cfg = reference.config();
        double distDefault = 0;
        double distTwenty = 0;
        double probDefault = 0;
        double probTwenty = 0;
        double stepsDefault = 0;
        double fixedLast = 0;
        double quadFine = 0;
        double quadMc = 0;
        double mcMc = 0;
        double seBound = 0;
        int probabilities = 0;
        LsgpMethod m = new LsgpMethod();
        for (int e = 0; e < checks; e++) {
            Episode ep = pool.get(e);
            LsgpSession s = (LsgpSession) m.learner(m.params(Map.of("meta_train", "false", "tau",
                    Double.toString(cfg.tau()), "mean", Double.toString(cfg.mean()))), Background.none(
                    ep.support().dimension())).newSession(SessionContext.forEpisode(ep, e));
            s.learn(ep.support());
            org.ejml.data.DMatrixRMaj k = s.supportKernel();
            int[] y = s.supportLabels();
            int c = ep.ways();
            MeanField def = MeanField.run(k, y, c, cfg.tau(), cfg.mean(), cfg.steps(), cfg.tol());
            MeanField twenty = MeanField.run(k, y, c, cfg.tau(), cfg.mean(), 20, 0);
            MeanField fixed = MeanField.run(k, y, c, cfg.tau(), cfg.mean(), fixedSteps, 1e-12);
            stepsDefault += def.steps() / (double) checks;
            fixedLast = Math.max(fixedLast, fixed.maxMeanChange(fixed.steps()));
            for (int cl = 0; cl < c; cl++) {
                double[] a = fixed.mean(cl);
                double[] b = def.mean(cl);
                double[] t = twenty.mean(cl);
                for (int i = 0; i < a.length; i++) {
                    distDefault = Math.max(distDefault, Math.abs(b[i] - a[i]));
                    distTwenty = Math.max(distTwenty, Math.abs(t[i] - a[i]));
                }
            }
            org.ejml.data.DMatrixRMaj ks = s.queryKernel(ep.queries());
            double[] kd = s.queryDiagonal(ep.queries());
            int q = ks.numCols;
            Predictor quad = new Predictor(c, cfg.tau(), cfg.mcSamples(), e, true);
            double[] pFixed = TaskInference.predict(cfg, TaskPosterior.of(fixed), ks, kd, quad, 1.0);
            double[] pDef = TaskInference.predict(cfg, TaskPosterior.of(def), ks, kd, quad, 1.0);
            double[] pTwenty = TaskInference.predict(cfg, TaskPosterior.of(twenty), ks, kd, quad, 1.0);
            TaskPosterior post = TaskPosterior.of(def);
            double[][][] means = post.means(ks, cfg.authorsQueryMean());
            double[][][] vars = post.variances(ks, kd);
            double[] pMc = new Predictor(c, cfg.tau(), cfg.mcSamples(), e, false).probabilities(means, vars, q, 1.0);
            double[] pRef = new Predictor(c, cfg.tau(), refDraws, seed * 1_000_003L + 7919L * (e + 1), false)
                    .probabilities(means, vars, q, 1.0);
            PredictiveQuadrature fine = new PredictiveQuadrature(c, 0.25, 8.5, 6, 1e-14);
            double[] lm = new double[c];
            double[] ls = new double[c];
            double[] pf = new double[c];
            for (int j = 0; j < q; j++) {
                for (int cl = 0; cl < c; cl++) {
                    lm[cl] = means[0][cl][j] / cfg.tau();
                    ls[cl] = Math.sqrt(vars[0][cl][j]) / cfg.tau();
                }
                boolean ok = fine.probabilities(lm, ls, pf);
                for (int cl = 0; cl < c; cl++) {
                    int i = j * c + cl;
                    if (ok) {
                        quadFine = Math.max(quadFine, Math.abs(pDef[i] - pf[cl]));
                    }
                    quadMc = Math.max(quadMc, Math.abs(pDef[i] - pRef[i]));
                    mcMc = Math.max(mcMc, Math.abs(pMc[i] - pRef[i]));
                    seBound = Math.max(seBound, Math.sqrt(pRef[i] * (1 - pRef[i]) / refDraws));
                    probDefault = Math.max(probDefault, Math.abs(pDef[i] - pFixed[i]));
                    probTwenty = Math.max(probTwenty, Math.abs(pTwenty[i] - pFixed[i]));
                    probabilities++;
                }
            }
        }
        table.note(String.format(Locale.ROOT, "fixed point (%d episodes; reference iteration to a change below 1e-12, "
                        + "largest last change %.1e): default (tol=%s, cap %d; %.1f steps on average) max |mu - mu*| = "
                        + "%.2e, max |p - p*| = %.2e; 20 steps: max |mu - mu*| = %.2e, max |p - p*| = %.2e", checks,
                fixedLast, cfg.tol(), cfg.steps(), stepsDefault, distDefault, probDefault, distTwenty, probTwenty));
        table.note(String.format(Locale.ROOT, "predictive (%d probabilities of the default posterior): quadrature vs "
                        + "fine rule max error %.1e; vs %d Monte Carlo draws max |diff| %.1e (reference standard error "
                        + "<= %.1e); %d Monte Carlo draws vs the same reference max |diff| %.1e", probabilities,
                quadFine, refDraws, quadMc, seBound, cfg.mcSamples(), mcMc));
    }

    private static double meanOf(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s / a.length;
    }

    private static double ci95(double[] a) {
        double mu = meanOf(a);
        double v = 0;
        for (double x : a) {
            v += (x - mu) * (x - mu);
        }
        return 1.96 * Math.sqrt(v / a.length / a.length);
    }

    /**
     * Support and labelled queries of an episode: its own classes, means N(1, 4/D I) (norm about 2 around the
     * all-ones point: features shifted positive), noise 0.35.
     */
    static LabeledData[] syntheticEpisode(UniformRandomProvider rng, int dim, int ways, int shots, int perClass) {
        GaussianClasses model = GaussianClasses.builder(dim, rng.nextLong()).means(dim, 2 / Math.sqrt(dim))
                .subspaceNoise(0).offset(1.0, 0).noise(0.35).build();
        return new LabeledData[]{model.classes(0, ways, shots, 0), model.classes(0, ways, perClass, 1)};
    }
}
