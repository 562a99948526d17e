package fsil.backbones.djl;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.ProgressSink;
import fsil.core.progress.TrainingLog;
import fsil.core.random.RandomStreams;
import fsil.data.Images;
import fsil.data.RawDataset;
import org.apache.commons.rng.UniformRandomProvider;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Training and embedding with DJL (see {@link ConvBackbone} and the module README). Seeds: PyTorch's generator
 * (initialisation) {@code seed}; epoch e's batch order {@code child(derive(seed, "order"), e)}; its augmentation
 * {@code child(derive(seed, "augment"), e)}; the validation episodes {@code derive(seed, "validation")}.
 */
final class ConvTrainer {
    static final int VALIDATION_WAYS = 5;
    static final int VALIDATION_QUERIES = 15;

    private ConvTrainer() {
    }

    /** Features of every sample and what meta.json records. */
    record Result(FeatureMatrix train, FeatureMatrix test, Map<String, Object> meta) {
    }

    /** Per-channel standardisation with the base-class training statistics, and the batch filler. */
    static final class Input {
        final Images images;
        final float[] mean;
        final float[] scale;
        final int pad;
        final boolean flip;

        Input(Images images, int[] baseRows) {
            this.images = images;
            int c = images.channels();
            int hw = images.height() * images.width();
            double[] sum = new double[c];
            double[] sq = new double[c];
            float[] x = images.train().rawData();
            int d = images.pixels();
            for (int r : baseRows) {
                for (int ch = 0; ch < c; ch++) {
                    for (int j = 0; j < hw; j++) {
                        double v = x[r * d + ch * hw + j];
                        sum[ch] += v;
                        sq[ch] += v * v;
                    }
                }
            }
            mean = new float[c];
            scale = new float[c];
            for (int ch = 0; ch < c; ch++) {
                double n = (double) baseRows.length * hw;
                double m = sum[ch] / n;
                double sd = Math.sqrt(Math.max(0, sq[ch] / n - m * m));
                mean[ch] = (float) m;
                scale[ch] = (float) (sd < 1e-6 ? 1 : 1 / sd);
            }
            // random crops of the padded image: pad 4 for 28x28 and 32x32, 1 for 8x8
            pad = Math.max(1, (int) Math.round(Math.min(images.height(), images.width()) / 8.0));
            flip = c == 3; // colour photographs; never glyphs, digits or other grayscale data (mirror = other class)
        }

        /** Standardised (and, with rng, randomly shifted/flipped) images of rows[from..to) into dst. */
        void fill(float[] dst, FeatureMatrix src, int[] rows, int from, int to, UniformRandomProvider rng) {
            int c = images.channels();
            int h = images.height();
            int w = images.width();
            int d = c * h * w;
            float[] x = src.rawData();
            for (int i = from; i < to; i++) {
                int o = (i - from) * d;
                int s = rows[i] * d;
                if (rng == null) {
                    for (int ch = 0; ch < c; ch++) {
                        for (int j = 0; j < h * w; j++) {
                            dst[o + ch * h * w + j] = (x[s + ch * h * w + j] - mean[ch]) * scale[ch];
                        }
                    }
                    continue;
                }
                int dy = rng.nextInt(2 * pad + 1) - pad;
                int dx = rng.nextInt(2 * pad + 1) - pad;
                boolean mirror = flip && rng.nextBoolean();
                for (int ch = 0; ch < c; ch++) {
                    for (int yy = 0; yy < h; yy++) {
                        int sy = yy + dy;
                        for (int xx = 0; xx < w; xx++) {
                            int sx = (mirror ? w - 1 - xx : xx) + dx;
                            // zero padding of the standardised image (= the mean pixel)
                            dst[o + (ch * h + yy) * w + xx] = sy < 0 || sy >= h || sx < 0 || sx >= w ? 0f
                                    : (x[s + (ch * h + sy) * w + sx] - mean[ch]) * scale[ch];
                        }
                    }
                }
            }
        }
    }

    static Result train(String id, RawDataset raw, ConvBackbone.Config c, long seed, Path cacheDir) {
        long t0 = System.nanoTime();
        Images im = raw.images();
        int[] base = raw.splits().base();
        if (base.length < 2) {
            throw new FsilException("backbone " + id + " needs at least 2 base classes to train on, dataset "
                    + raw.name() + " has " + base.length + "; for a feature directory list them in splits/base.txt");
        }
        int[] remap = classIndex(base, raw.classes().size());
        int[] labels = raw.train().labels();
        int[] rows = java.util.stream.IntStream.range(0, labels.length)
                .filter(i -> labels[i] < remap.length && remap[labels[i]] >= 0).toArray();
        if (rows.length < 2) {
            throw new FsilException("backbone " + id + ": dataset " + raw.name() + " has " + rows.length
                    + " training images of base classes; at least 2 are needed");
        }
        Input input = new Input(im, rows);
        DjlRuntime.prepare(cacheDir, c.threads(), seed);
        Engine engine = DjlRuntime.engine(cacheDir);
        Device device = engine.defaultDevice();
        int bs = Math.min(c.batch(), rows.length);
        Shape batchShape = new Shape(bs, im.channels(), im.height(), im.width());
        Block features = Networks.features(c.architecture(), im.channels(), im.height(), im.width());
        SequentialBlock net = new SequentialBlock().add(features)
                .add(Linear.builder().setUnits(base.length).build());
        Validation validation = Validation.of(raw, c, seed);
        List<Double> losses = new ArrayList<>();
        List<Double> accs = new ArrayList<>();
        List<Double> valAccs = new ArrayList<>();
        int best = -1;
        byte[] bestParams = null;
        double imagesPerSecond;
        String what = "training backbone " + c.describe() + " on " + raw.name();
        try (Model model = Model.newInstance(id, device, DjlRuntime.ENGINE)) {
            model.setBlock(net);
            Optimizer opt = c.optimiser() == ConvBackbone.Optimiser.SGD
                    ? Optimizer.sgd().setLearningRateTracker(Tracker.fixed((float) c.lr()))
                    .optMomentum((float) c.momentum()).optWeightDecays((float) c.wd()).build()
                    : Optimizer.adam().optLearningRateTracker(Tracker.fixed((float) c.lr()))
                    .optWeightDecays((float) c.wd()).build();
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                    .optOptimizer(opt).optDevices(new Device[]{device});
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(batchShape);
                long tTrain = System.nanoTime(); // images/s from here: engine start and libtorch extraction excluded
                int k = base.length;
                int batches = rows.length / bs + (rows.length % bs >= 2 ? 1 : 0); // a last batch of 1 is dropped
                TrainingLog log = new TrainingLog(ProgressSink.LOGGING, what, "batches", (long) c.epochs() * batches);
                float[] buf = new float[bs * im.pixels()];
                float[] onehot = new float[bs * k];
                int[] y = new int[bs];
                long orderSeed = RandomStreams.derive(seed, "order");
                long augmentSeed = RandomStreams.derive(seed, "augment");
                long images = 0;
                long validationNanos = 0;
                double lastVal = Double.NaN;
                for (int epoch = 0; epoch < c.epochs(); epoch++) {
                    int[] order = rows.clone();
                    RandomStreams.shuffle(order, RandomStreams.child(orderSeed, epoch));
                    UniformRandomProvider aug = c.augment() ? RandomStreams.child(augmentSeed, epoch) : null;
                    double lossSum = 0;
                    long correct = 0;
                    int seen = 0;
                    for (int b = 0; b < batches; b++) {
                        int from = b * bs;
                        int to = Math.min(order.length, from + bs);
                        int n = to - from;
                        input.fill(buf, im.train(), order, from, to, aug);
                        Arrays.fill(onehot, 0f);
                        for (int i = 0; i < n; i++) {
                            y[i] = remap[labels[order[from + i]]];
                            onehot[i * k + y[i]] = 1f;
                        }
                        try (NDManager sub = trainer.getManager().newSubManager()) {
                            NDArray x = sub.create(n == bs ? buf : Arrays.copyOf(buf, n * im.pixels()),
                                    new Shape(n, im.channels(), im.height(), im.width()));
                            NDArray t = sub.create(n == bs ? onehot : Arrays.copyOf(onehot, n * k), new Shape(n, k));
                            float loss;
                            float[] logits;
                            GradientInjection.zeroGradients(net);
                            try (GradientCollector gc = trainer.newGradientCollector()) {
                                NDArray z = trainer.forward(new NDList(x)).singletonOrThrow();
                                NDArray l = z.logSoftmax(1).mul(t).sum().neg().div(n);
                                gc.backward(l);
                                loss = l.getFloat();
                                logits = z.toFloatArray();
                            }
                            trainer.step();
                            if (!Float.isFinite(loss)) {
                                throw new FsilException("backbone " + id + " training diverged (loss " + loss
                                        + ") at epoch " + (epoch + 1) + "; lower lr (now " + c.lr() + ")");
                            }
                            lossSum += loss * n;
                            correct += countCorrect(logits, n, k, y);
                        }
                        seen += n;
                        images += n;
                        double seconds = (System.nanoTime() - tTrain) / 1e9;
                        log.step((long) epoch * batches + b + 1, String.format(Locale.ROOT,
                                "epoch %d/%d, loss %.4f, train accuracy %.1f%%, %.0f images/s%s", epoch + 1,
                                c.epochs(), lossSum / seen, 100.0 * correct / seen, images / Math.max(seconds, 1e-9),
                                Double.isNaN(lastVal) ? "" : String.format(Locale.ROOT,
                                        ", validation %d-shot accuracy %.1f%% (epoch %d)", c.valShots(),
                                        100 * lastVal, epoch)));
                    }
                    losses.add(lossSum / seen);
                    accs.add(correct / (double) seen);
                    if (validation != null) {
                        long v0 = System.nanoTime();
                        lastVal = validation.accuracy(embed(features, model.getNDManager(), input, im.train(),
                                validation.rows, bs, null));
                        valAccs.add(lastVal);
                        if (best < 0 || lastVal > valAccs.get(best)) {
                            best = epoch;
                            bestParams = save(net);
                        }
                        validationNanos += System.nanoTime() - v0;
                    }
                }
                imagesPerSecond = images / Math.max((System.nanoTime() - tTrain - validationNanos) / 1e9, 1e-9);
            }
            if (bestParams != null && best != c.epochs() - 1) {
                load(net, model.getNDManager(), bestParams);
            }
            int all = raw.train().size() + raw.test().size();
            TrainingLog elog = new TrainingLog(ProgressSink.LOGGING, "embedding with " + c.describe() + " on " + raw.name(), "images", all);
            FeatureMatrix train = embed(features, model.getNDManager(), input, im.train(),
                    java.util.stream.IntStream.range(0, raw.train().size()).toArray(), Math.max(bs, 256),
                    done -> elog.step(done, null));
            int offset = raw.train().size();
            FeatureMatrix test = embed(features, model.getNDManager(), input, im.test(),
                    java.util.stream.IntStream.range(0, raw.test().size()).toArray(), Math.max(bs, 256),
                    done -> elog.step(offset + done, null));
            for (FeatureMatrix f : new FeatureMatrix[]{train, test}) {
                int bad = f.firstNonFinite();
                if (bad >= 0) {
                    throw new FsilException("backbone " + id + " gave a non-finite feature (value " + bad + " of the "
                            + (f == train ? "training" : "test") + " features); nothing was cached: run again, and"
                            + " see backbones-djl/README.md, Convolutions and uninitialised memory");
                }
            }
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("train_seconds", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            meta.put("training_images_per_second", Math.round(imagesPerSecond)); // excluding start-up and validation
            meta.put("epoch_loss", losses);
            meta.put("epoch_train_accuracy", accs);
            meta.put("epoch_validation_accuracy", valAccs);
            meta.put("validation", validation == null ? "none (the last epoch is kept)"
                    : validation.description());
            meta.put("chosen_epoch", (best < 0 ? c.epochs() - 1 : best) + 1);
            meta.put("feature_dimension", train.cols());
            meta.put("engine", engine.getEngineName() + " " + engine.getVersion());
            meta.put("device", device.toString());
            meta.put("threads", c.threads());
            return new Result(train, test, meta);
        }
    }

    static int[] classIndex(int[] classes, int numClasses) {
        int max = numClasses - 1;
        for (int v : classes) {
            max = Math.max(max, v);
        }
        int[] remap = new int[max + 1];
        Arrays.fill(remap, -1);
        for (int i = 0; i < classes.length; i++) {
            remap[classes[i]] = i;
        }
        return remap;
    }

    private static int countCorrect(float[] logits, int n, int k, int[] y) {
        int correct = 0;
        for (int r = 0; r < n; r++) {
            int best = 0;
            for (int j = 1; j < k; j++) {
                if (logits[r * k + j] > logits[r * k + best]) {
                    best = j;
                }
            }
            correct += best == y[r] ? 1 : 0;
        }
        return correct;
    }

    /** The frozen network's features (inference mode: batch norm uses its running statistics) of some rows. */
    static FeatureMatrix embed(Block features, NDManager manager, Input input, FeatureMatrix src, int[] rows, int bs,
                               java.util.function.LongConsumer progress) {
        Images im = input.images;
        float[] buf = new float[bs * im.pixels()];
        float[] out = null;
        int d = 0;
        ParameterStore ps = new ParameterStore(manager, false);
        for (int from = 0; from < rows.length; from += bs) {
            int to = Math.min(rows.length, from + bs);
            int n = to - from;
            input.fill(buf, src, rows, from, to, null);
            try (NDManager sub = manager.newSubManager()) {
                NDArray x = sub.create(n == bs ? buf : Arrays.copyOf(buf, n * im.pixels()),
                        new Shape(n, im.channels(), im.height(), im.width()));
                NDArray z = features.forward(ps, new NDList(x), false).singletonOrThrow();
                float[] f = z.reshape(n, -1).toFloatArray();
                if (out == null) {
                    d = f.length / n;
                    out = new float[rows.length * d];
                }
                System.arraycopy(f, 0, out, from * d, n * d);
            }
            if (progress != null) {
                progress.accept(to);
            }
        }
        return FeatureMatrix.wrap(rows.length, d, out);
    }

    static byte[] save(Block net) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                net.saveParameters(out);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void load(Block net, NDManager manager, byte[] params) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(params))) {
            net.loadParameters(manager, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (MalformedModelException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Few-shot episodes on the validation classes, fixed for a seed: {@code min(5, classes)}-way, {@code val_shots}
     * shots, up to 15 queries per class from the training samples of the validation classes; scored by
     * nearest-class-mean (Euclidean) accuracy on the current network's features.
     */
    static final class Validation {
        final int[] rows;          // the training rows of the validation classes
        final int[][] support;     // per episode: indices into rows, class-major
        final int[][] query;
        final int[][] queryClass;  // per episode: the way of each query
        final int ways;
        final int shots;
        /** Episodes the method's inference could not classify, over every {@link #accuracy(FeatureMatrix,
         * fsil.api.EmbeddingObjective.Training, long)} call. */
        int failed;
        /** Whether the objective offered no prediction, so that episodes were scored by nearest class mean. */
        boolean nearestMean;

        private Validation(int[] rows, int[][] support, int[][] query, int[][] queryClass, int ways, int shots) {
            this.rows = rows;
            this.support = support;
            this.query = query;
            this.queryClass = queryClass;
            this.ways = ways;
            this.shots = shots;
        }

        String description() {
            return support.length + " episodes, " + ways + "-way " + shots + "-shot, nearest class mean, on the"
                    + " validation classes' training samples";
        }

        static Validation of(RawDataset raw, ConvBackbone.Config c, long seed) {
            int[] val = raw.splits().validation();
            if (c.valEpisodes() == 0 || val.length < 2) {
                return null;
            }
            int[] labels = raw.train().labels();
            List<List<Integer>> byClass = new ArrayList<>();
            List<Integer> eligible = new ArrayList<>();
            List<Integer> rowList = new ArrayList<>();
            int[] remap = classIndex(val, raw.classes().size());
            for (int i = 0; i < val.length; i++) {
                byClass.add(new ArrayList<>());
            }
            for (int r = 0; r < labels.length; r++) {
                if (labels[r] < remap.length && remap[labels[r]] >= 0) {
                    byClass.get(remap[labels[r]]).add(rowList.size());
                    rowList.add(r);
                }
            }
            for (int i = 0; i < val.length; i++) {
                if (byClass.get(i).size() > c.valShots()) {
                    eligible.add(i);
                }
            }
            if (eligible.size() < 2) {
                return null;
            }
            int ways = Math.min(VALIDATION_WAYS, eligible.size());
            int shots = c.valShots();
            UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "validation"));
            int[][] support = new int[c.valEpisodes()][];
            int[][] query = new int[c.valEpisodes()][];
            int[][] queryClass = new int[c.valEpisodes()][];
            int[] classes = eligible.stream().mapToInt(Integer::intValue).toArray();
            for (int e = 0; e < c.valEpisodes(); e++) {
                int[] pick = classes.clone();
                RandomStreams.shuffle(pick, rng);
                List<Integer> s = new ArrayList<>();
                List<Integer> q = new ArrayList<>();
                List<Integer> qc = new ArrayList<>();
                for (int w = 0; w < ways; w++) {
                    int[] members = byClass.get(pick[w]).stream().mapToInt(Integer::intValue).toArray();
                    RandomStreams.shuffle(members, rng);
                    int nq = Math.min(VALIDATION_QUERIES, members.length - shots);
                    for (int i = 0; i < shots; i++) {
                        s.add(members[i]);
                    }
                    for (int i = 0; i < nq; i++) {
                        q.add(members[shots + i]);
                        qc.add(w);
                    }
                }
                support[e] = s.stream().mapToInt(Integer::intValue).toArray();
                query[e] = q.stream().mapToInt(Integer::intValue).toArray();
                queryClass[e] = qc.stream().mapToInt(Integer::intValue).toArray();
            }
            return new Validation(rowList.stream().mapToInt(Integer::intValue).toArray(), support, query, queryClass,
                    ways, shots);
        }

        /**
         * Mean accuracy over the episodes of a method's test-time inference ({@code Training.predict}), for features
         * of {@link #rows}; nearest class mean when the objective offers no prediction. Episode e's seed is
         * {@code derive(seed, e)}. An episode the method cannot classify (its inference throws an
         * {@link FsilException}) scores 0 and is counted in {@link #failed}.
         */
        double accuracy(FeatureMatrix f, fsil.api.EmbeddingObjective.Training objective, long seed) {
            int d = f.cols();
            float[] x = f.rawData();
            double sum = 0;
            for (int e = 0; e < support.length; e++) {
                double[] s = new double[support[e].length * d];
                int[] ys = new int[support[e].length];
                for (int i = 0; i < support[e].length; i++) {
                    ys[i] = i / shots;
                    for (int j = 0; j < d; j++) {
                        s[i * d + j] = x[support[e][i] * d + j];
                    }
                }
                double[] q = new double[query[e].length * d];
                for (int i = 0; i < query[e].length; i++) {
                    for (int j = 0; j < d; j++) {
                        q[i * d + j] = x[query[e][i] * d + j];
                    }
                }
                double[] p;
                try {
                    p = objective.predict(s, ys, q, d, ways, RandomStreams.derive(seed, e));
                } catch (FsilException cannot) {
                    // e.g. a ReLU network that embeds an image at 0, where a cosine kernel is undefined: the method
                    // could not classify this episode at test time either, so it scores 0
                    failed++;
                    continue;
                }
                if (p == null) {
                    nearestMean = true;
                    return accuracy(f);
                }
                int correct = 0;
                for (int i = 0; i < query[e].length; i++) {
                    int best = 0;
                    for (int w = 1; w < ways; w++) {
                        if (p[i * ways + w] > p[i * ways + best]) {
                            best = w;
                        }
                    }
                    correct += best == queryClass[e][i] ? 1 : 0;
                }
                sum += correct / (double) query[e].length;
            }
            return sum / support.length;
        }

        /** Mean NCM accuracy over the episodes, for features of {@link #rows} (row i = rows[i]). */
        double accuracy(FeatureMatrix f) {
            int d = f.cols();
            float[] x = f.rawData();
            double sum = 0;
            for (int e = 0; e < support.length; e++) {
                double[] means = new double[ways * d];
                for (int i = 0; i < support[e].length; i++) {
                    int w = i / shots;
                    for (int j = 0; j < d; j++) {
                        means[w * d + j] += x[support[e][i] * d + j] / (double) shots;
                    }
                }
                int correct = 0;
                for (int qi = 0; qi < query[e].length; qi++) {
                    int best = 0;
                    double bestDist = Double.POSITIVE_INFINITY;
                    for (int w = 0; w < ways; w++) {
                        double dist = 0;
                        for (int j = 0; j < d; j++) {
                            double diff = x[query[e][qi] * d + j] - means[w * d + j];
                            dist += diff * diff;
                        }
                        if (dist < bestDist) {
                            bestDist = dist;
                            best = w;
                        }
                    }
                    correct += best == queryClass[e][qi] ? 1 : 0;
                }
                sum += correct / (double) query[e].length;
            }
            return sum / support.length;
        }
    }
}
