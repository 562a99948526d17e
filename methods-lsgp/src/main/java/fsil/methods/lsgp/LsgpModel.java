package fsil.methods.lsgp;

import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.ProgressSink;
import fsil.core.calibration.TemperatureScaling;
import fsil.core.gp.CosineKernel;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a learner holds: the (meta-trained) deep kernel, the calibration temperature and diagnostics.
 *
 * <p>Preparation ({@link #prepare}): the base classes are split once, by a stream of the background seed, into
 * meta-training classes and a held-out {@code val_fraction} of meta-validation classes (the {@link Background} only
 * carries the base classes, so the dataset's own validation split is not available here). The kernel is trained on
 * the meta-training classes (or read from the disk cache); with {@code select=best} the checkpoint with the best
 * accuracy on the meta-validation episodes is kept ({@link MetaTrainer}), falling back to the last iterate when there
 * is no meta-validation (diagnostic {@code select_fallback_last}); the meta-validation episodes give the validation
 * accuracy and, with {@code calibrate=true}, the temperature of {@link TemperatureScaling}. Caveat: a backbone
 * pretrained on all base classes has seen the validation classes, so their features are more separable than those
 * of novel classes and the fitted temperature can be too low (over-sharpening).
 */
final class LsgpModel {
    private final LsgpKernel kernel;
    private final double temperature;
    private final Map<String, Double> diagnostics;

    private LsgpModel(LsgpKernel kernel, double temperature, Map<String, Double> diagnostics) {
        this.kernel = kernel;
        this.temperature = temperature;
        this.diagnostics = Collections.unmodifiableMap(diagnostics);
    }

    LsgpKernel kernel() {
        return kernel;
    }

    double temperature() {
        return temperature;
    }

    Map<String, Double> diagnostics() {
        return diagnostics;
    }

    static LsgpModel prepare(LsgpConfig cfg, Background bg, ProgressSink progress) {
        LabeledData base = bg.base();
        Map<String, Double> diag = new LinkedHashMap<>();
        int[][] split = split(base.classes(), cfg.valFraction(), bg.seed());
        int[] trainClasses = split[0];
        int[] valClasses = split[1];
        EpisodeSampler trainSampler = new EpisodeSampler(base, trainClasses, cfg.trainShots());
        EpisodeSampler valSampler = new EpisodeSampler(base, valClasses, cfg.trainShots());
        boolean canValidate = valSampler.classes() >= 2 && cfg.valEpisodes() > 0;
        LsgpKernel kernel;
        if (cfg.metaTrain() && cfg.trainEpisodes() > 0 && trainSampler.classes() >= 2) {
            kernel = trained(cfg, bg, trainClasses, cfg.selectBest() && canValidate ? valSampler : null, diag,
                    progress);
            // select=best without meta-validation keeps the last iterate; say so
            diag.put("select_fallback_last", cfg.selectBest() && !canValidate ? 1.0 : 0.0);
            diag.put("meta_trained", 1.0);
        } else {
            kernel = LsgpKernel.fixed(cfg.outputscale());
            diag.put("meta_trained", 0.0);
        }
        diag.put("outputscale", kernel.outputscale());
        diag.put("meta_train_classes", (double) trainClasses.length);
        diag.put("meta_val_classes", (double) valClasses.length);
        double temperature = 1.0;
        if (canValidate) {
            Validation v = validate(cfg, base, valSampler, kernel, bg.seed());
            diag.put("val_acc", v.accuracy());
            diag.put("val_nll", TemperatureScaling.nll(v.probabilities(), v.labels(), v.numClasses(), 1.0));
            if (cfg.calibrate()) {
                temperature = TemperatureScaling.fit(v.probabilities(), v.labels(), v.numClasses()).temperature();
            }
        }
        diag.put("calibration_temperature", temperature);
        return new LsgpModel(kernel, temperature, diag);
    }

    /** [0] = meta-training classes, [1] = meta-validation classes (both sorted). */
    static int[][] split(int[] classes, double valFraction, long seed) {
        int[] c = classes.clone();
        Arrays.sort(c);
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "lsgp-class-split"));
        RandomStreams.shuffle(c, rng);
        int nVal = validationClasses(c.length, valFraction);
        int[] val = Arrays.copyOfRange(c, 0, nVal);
        int[] train = Arrays.copyOfRange(c, nVal, c.length);
        Arrays.sort(val);
        Arrays.sort(train);
        return new int[][]{train, val};
    }

    /**
     * Number of meta-validation classes: round(valFraction * classes), raised to 2 when that leaves at least 2
     * meta-training classes (a 5-class background such as digits or fashion-mnist would otherwise have no
     * meta-validation, and {@code select=best} could not detect a meta-training that hurts); 0 when fewer than 2
     * would remain for training, or when valFraction is 0 (meta-validation switched off).
     */
    static int validationClasses(int classes, double valFraction) {
        if (valFraction <= 0) {
            return 0;
        }
        int nVal = Math.max(2, (int) Math.round(valFraction * classes));
        return classes - nVal >= 2 ? nVal : 0;
    }

    /** Whether the minimum of 2 validation classes changed the split (before it, such backgrounds had none). */
    private static boolean validationMinimumApplied(int classes, double valFraction) {
        int old = Math.min((int) Math.round(valFraction * classes), classes - 2);
        return old < 2 && validationClasses(classes, valFraction) > 0;
    }

    /** The disk-cache key of the last iterate ({@code select=last}, or no meta-validation available). */
    static String cacheKey(LsgpConfig cfg, Background bg) {
        return cacheKey(cfg, bg, false);
    }

    /** The disk-cache key; with {@code selecting}, the settings the checkpoint selection depends on are added. */
    static String cacheKey(LsgpConfig cfg, Background bg, boolean selecting) {
        return "lsgp-model-v1|" + bg.dataKey() + "|seed=" + bg.seed() + "|dim=" + bg.base().dimension() + "|rows="
                + bg.base().size() + "|" + cfg.trainingKey() + (selecting ? "|" + cfg.selectionKey() : "")
                // models trained on fewer classes since the minimum of 2 validation classes must not be confused
                // with those cached before it, which used every class
                + (validationMinimumApplied(bg.base().classes().length, cfg.valFraction()) ? "|val-min-2" : "");
    }

    /**
     * @param valSampler the meta-validation classes for checkpoint selection, or null to keep the last iterate
     */
    private static LsgpKernel trained(LsgpConfig cfg, Background bg, int[] trainClasses, EpisodeSampler valSampler,
                                      Map<String, Double> diag, ProgressSink progress) {
        int d = bg.base().dimension();
        int[] sizes = cfg.mapSizes(d);
        boolean selecting = valSampler != null;
        String key = cacheKey(cfg, bg, selecting);
        Optional<Path> file = cfg.cache() ? bg.cacheDir().map(dir -> ModelCache.file(dir, key)) : Optional.empty();
        Optional<ModelCache.Entry> cached = file.flatMap(f -> ModelCache.read(f, key, sizes, cfg.residual()));
        ModelCache.Entry entry;
        if (cached.isPresent()) {
            entry = cached.get();
            diag.put("model_from_cache", 1.0);
        } else {
            long t0 = System.nanoTime();
            LsgpConfig valCfg = cfg.selectionValidation();
            MetaTrainer.Result r = MetaTrainer.train(cfg, bg.base(), trainClasses, bg.seed(), !selecting ? null
                    : kernel -> validate(valCfg, bg.base(), valSampler, kernel, bg.seed()).accuracy(), progress);
            diag.put("meta_train_s", (System.nanoTime() - t0) * 1e-9);
            entry = new ModelCache.Entry(r.kernel(), r.initialLoss(), r.finalLoss(), r.skipped(), r.selection());
            file.ifPresent(f -> ModelCache.write(f, key, entry));
            diag.put("model_from_cache", 0.0);
        }
        diag.put("train_loss_first", entry.initialLoss());
        diag.put("train_loss_last", entry.finalLoss());
        diag.put("train_skipped", (double) entry.skipped());
        MetaTrainer.Selection sel = entry.selection();
        diag.put("selected_step", sel == null ? (double) cfg.trainEpisodes() : sel.step());
        if (sel != null) {
            diag.put("val_acc_selected", sel.accuracy());
            diag.put("val_acc_last", sel.lastAccuracy());
            diag.put("val_checkpoints", (double) sel.evaluations());
        }
        return entry.kernel();
    }

    /** Predictions and labels of the meta-validation episodes. */
    record Validation(double[] probabilities, int[] labels, int numClasses, double accuracy) {
    }

    static Validation validate(LsgpConfig cfg, LabeledData base, EpisodeSampler sampler, LsgpKernel kernel,
                               long seed) {
        int ways = Math.min(cfg.trainWays(), sampler.classes());
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "lsgp-validation"));
        CosineKernel k = kernel.kernel();
        int total = 0;
        int correct = 0;
        java.util.List<double[]> probs = new java.util.ArrayList<>();
        java.util.List<int[]> labels = new java.util.ArrayList<>();
        for (int e = 0; e < cfg.valEpisodes(); e++) {
            EpisodeSampler.Episode ep = sampler.sample(rng, ways, cfg.trainShots(), cfg.trainQueries());
            int ns = ep.supportSize();
            int[] rows = ep.rows();
            DMatrixRMaj z = kernel.embed(base.features().selectRows(rows));
            DMatrixRMaj zs = new DMatrixRMaj(ns, z.numCols);
            DMatrixRMaj zq = new DMatrixRMaj(rows.length - ns, z.numCols);
            System.arraycopy(z.data, 0, zs.data, 0, zs.data.length);
            System.arraycopy(z.data, zs.data.length, zq.data, 0, zq.data.length);
            long unitSeed = RandomStreams.derive(seed, e);
            TaskPosterior post = TaskInference.fit(cfg, k.matrix(zs), ep.supportLabels(), ways, unitSeed, null);
            double[] p = TaskInference.predict(cfg, post, k.matrix(zs, zq), k.diag(zq),
                    new Predictor(ways, cfg.tau(), cfg.mcSamples(), unitSeed, cfg.quadrature()), 1.0);
            int[] yq = ep.queryLabels();
            for (int j = 0; j < yq.length; j++) {
                int best = 0;
                for (int c = 1; c < ways; c++) {
                    if (p[j * ways + c] > p[j * ways + best]) {
                        best = c;
                    }
                }
                correct += best == yq[j] ? 1 : 0;
            }
            total += yq.length;
            probs.add(p);
            labels.add(yq);
        }
        double[] allP = new double[total * ways];
        int[] allY = new int[total];
        int at = 0;
        for (int e = 0; e < probs.size(); e++) {
            System.arraycopy(probs.get(e), 0, allP, at * ways, probs.get(e).length);
            System.arraycopy(labels.get(e), 0, allY, at, labels.get(e).length);
            at += labels.get(e).length;
        }
        return new Validation(allP, allY, ways, total == 0 ? Double.NaN : correct / (double) total);
    }
}
