package fsil.data;

import fsil.api.AbstractPlugin;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.ProgressSink;
import fsil.core.nn.Adam;
import fsil.core.nn.Mlp;
import fsil.core.nn.Parameters;
import fsil.core.nn.SoftmaxCrossEntropy;
import fsil.core.progress.TrainingLog;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import jakarta.inject.Inject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code pretrained-mlp} backbone: the standard frozen-backbone pipeline of the few-shot and incremental papers
 * with an MLP in place of a CNN.
 * <ol>
 *   <li>Inputs are standardised per feature with the mean and standard deviation of the <em>base-class training
 *       samples</em> (a standard deviation below 1e-6, e.g. an always-black border pixel, is replaced by 1).</li>
 *   <li>An MLP {@code d -> hidden... } with ReLU after every layer, plus a linear classifier over the base classes,
 *       is trained with softmax cross-entropy on the base-class training samples only: Adam (AdamW weight decay),
 *       mini-batches in a fresh seeded random order each epoch, a fixed number of epochs. Seeds: MLP
 *       initialisation {@code derive(seed, "init")}, classifier {@code derive(seed, "head")}, epoch e's order
 *       {@code child(derive(seed, "order"), e)}.</li>
 *   <li>The classifier is dropped; the MLP is frozen and its last hidden layer (after ReLU) gives the features of
 *       every sample, base and novel, train and test.</li>
 * </ol>
 * The features are cached per (dataset, backbone configuration, seed, content hash of the raw data) under
 * {@code <cache>/features/<key>/} as {@code train.npy}, {@code test.npy} (float32) and {@code meta.json} (the key,
 * per-epoch training loss and accuracy, training time), written atomically with meta.json last.
 */
public final class PretrainedMlpBackbone extends AbstractPlugin implements Backbone {
    public static final String ID = "pretrained-mlp";

    private final ProgressSink progress;

    /** Progress lines to {@link ProgressSink#LOGGING} (a backbone made by ServiceLoader or in a test). */
    public PretrainedMlpBackbone() {
        this(ProgressSink.LOGGING);
    }

    /** Progress lines to the application's sink. */
    @Inject
    public PretrainedMlpBackbone(ProgressSink progress) {
        super(ID, "an MLP trained by cross-entropy on the base classes, frozen; its last hidden layer gives the features",
                List.of(HIDDEN, EPOCHS, BATCH, LR, WD));
        this.progress = progress;
    }

    static final Param<String> HIDDEN = Param.text("hidden", "512-256-128",
            "hidden layer widths, e.g. 256-128; the last is the feature dimension");
    static final Param<Integer> EPOCHS = Param.integer("epochs", 15, 1, 100_000, "passes over the base-class training data");
    static final Param<Integer> BATCH = Param.integer("batch", 128, 1, 1 << 20, "mini-batch size");
    static final Param<Double> LR = Param.real("lr", 1e-3, Double.MIN_VALUE, Double.POSITIVE_INFINITY, "Adam step size");
    static final Param<Double> WD = Param.real("wd", 1e-4, 0, Double.POSITIVE_INFINITY,
            "decoupled (AdamW-style) weight decay per step, relative to the step size");

    /**
     * A configuration.
     *
     * @param hidden       hidden layer widths
     * @param epochs       passes over the base-class training data
     * @param batchSize    mini-batch size
     * @param learningRate Adam step size
     * @param weightDecay  decoupled weight decay
     */
    public record Config(List<Integer> hidden, int epochs, int batchSize, double learningRate, double weightDecay) {
        public Config {
            hidden = List.copyOf(hidden);
        }

        /** The configuration of resolved parameters; a malformed {@code hidden} is a one-line error. */
        public static Config of(Params p) {
            String h = p.get(HIDDEN).strip();
            if (!h.matches("[0-9]+([-x][0-9]+)*")) {
                throw new FsilException("backbone pretrained-mlp: hidden='" + h + "' must be layer widths joined by"
                        + " '-', e.g. hidden=256-128");
            }
            List<Integer> widths = new ArrayList<>();
            for (String w : h.split("[-x]")) {
                int v;
                try {
                    v = Integer.parseInt(w);
                } catch (NumberFormatException e) {
                    v = 0;
                }
                if (v < 1) {
                    throw new FsilException("backbone pretrained-mlp: every hidden width must be an integer >= 1, got "
                            + h);
                }
                widths.add(v);
            }
            return new Config(widths, p.get(EPOCHS), p.get(BATCH), p.get(LR), p.get(WD));
        }

        /** The canonical text, as recorded since the first version (cache keys and data fingerprints rest on it). */
        public String describe() {
            StringBuilder h = new StringBuilder();
            for (int i = 0; i < hidden.size(); i++) {
                h.append(i == 0 ? "" : "-").append(hidden.get(i));
            }
            return ID + ":hidden=" + h + ",epochs=" + epochs + ",batch=" + batchSize + ",lr=" + learningRate
                    + ",wd=" + weightDecay;
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /** The historical text {@code pretrained-mlp:hidden=...,epochs=...,batch=...,lr=...,wd=...}. */
    @Override
    public String describe(Params params) {
        return Config.of(params).describe();
    }

    @Override
    public FeatureSet apply(RawDataset raw, Params params, long seed, Path cacheDir) {
        return apply(raw, Config.of(params), seed, cacheDir, progress);
    }

    /** Result of training: the frozen map, the standardisation and the training log. */
    public record Trained(Mlp mlp, float[] mean, float[] scale, List<Double> epochLoss, List<Double> epochAccuracy,
                          double seconds) {
    }

    /** Features through the cache ({@link FeatureCache}). */
    public static FeatureSet apply(RawDataset raw, Config spec, long seed, Path cacheDir, ProgressSink progress) {
        String key = raw.name() + "|" + spec.describe() + "|seed=" + seed + "|data=" + contentHash(raw);
        return FeatureCache.load(raw, spec.describe(), key, seed, cacheDir, () -> {
            Trained t = train(raw, spec, seed, progress);
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("train_seconds", Math.round(t.seconds() * 10) / 10.0);
            meta.put("epoch_loss", t.epochLoss());
            meta.put("epoch_train_accuracy", t.epochAccuracy());
            return new FeatureCache.Computed(features(t, raw.train().features()), features(t, raw.test().features()),
                    meta);
        });
    }

    /** Trains the MLP on the base classes' training samples (see the class comment). */
    public static Trained train(RawDataset raw, Config spec, long seed, ProgressSink progress) {
        long t0 = System.nanoTime();
        int[] base = raw.splits().base();
        if (base.length < 2) {
            throw new FsilException("pretrained-mlp needs at least 2 base classes to train on, dataset " + raw.name()
                    + " has " + base.length + "; for a feature directory list them in splits/base.txt");
        }
        int maxLabel = raw.classes().size() - 1;
        for (int c : base) {
            maxLabel = Math.max(maxLabel, c);
        }
        int[] remap = new int[maxLabel + 1];
        java.util.Arrays.fill(remap, -1);
        for (int i = 0; i < base.length; i++) {
            remap[base[i]] = i;
        }
        LabeledData tr = raw.train();
        int[] labels = tr.labels();
        List<Integer> rowsList = new ArrayList<>();
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < remap.length && remap[labels[i]] >= 0) {
                rowsList.add(i);
            }
        }
        int[] rows = rowsList.stream().mapToInt(Integer::intValue).toArray();
        int[] y = new int[labels.length];
        for (int r : rows) {
            y[r] = remap[labels[r]];
        }
        int d = tr.dimension();
        float[] x = tr.features().rawData();
        // standardisation from the base-class training samples
        double[] sum = new double[d];
        double[] sq = new double[d];
        for (int r : rows) {
            for (int j = 0; j < d; j++) {
                double v = x[r * d + j];
                sum[j] += v;
                sq[j] += v * v;
            }
        }
        float[] mean = new float[d];
        float[] scale = new float[d];
        for (int j = 0; j < d; j++) {
            double m = sum[j] / rows.length;
            double var = Math.max(0, sq[j] / rows.length - m * m);
            double sd = Math.sqrt(var);
            mean[j] = (float) m;
            scale[j] = (float) (sd < 1e-6 ? 1.0 : 1.0 / sd);
        }
        float[] xs = standardise(x, mean, scale);

        int[] sizes = new int[spec.hidden().size() + 1];
        sizes[0] = d;
        for (int l = 0; l < spec.hidden().size(); l++) {
            sizes[l + 1] = spec.hidden().get(l);
        }
        Mlp mlp = new Mlp(sizes, true, RandomStreams.derive(seed, "init"));
        int h = mlp.outputSize();
        Mlp head = new Mlp(new int[]{h, base.length}, false, RandomStreams.derive(seed, "head"));
        Parameters params = new Parameters().addAll(mlp.parameters()).addAll(head.parameters());
        Adam adam = new Adam(spec.learningRate(), spec.weightDecay());
        int bs = spec.batchSize();
        Mlp.Batch b = mlp.newBatch(bs);
        Mlp.Batch hb = head.newBatch(bs);
        int[] batchLabels = new int[bs];
        List<Double> losses = new ArrayList<>();
        List<Double> accs = new ArrayList<>();
        long orderSeed = RandomStreams.derive(seed, "order");
        int batches = (rows.length + bs - 1) / bs;
        TrainingLog log = new TrainingLog(progress, "training backbone " + spec, "batches", (long) spec.epochs() * batches);
        long images = 0;
        for (int epoch = 0; epoch < spec.epochs(); epoch++) {
            int[] order = rows.clone();
            RandomStreams.shuffle(order, RandomStreams.child(orderSeed, epoch));
            double lossSum = 0;
            long correct = 0;
            for (int from = 0; from < order.length; from += bs) {
                int to = Math.min(order.length, from + bs);
                int n = to - from;
                b.setInput(xs, order, from, to);
                for (int i = 0; i < n; i++) {
                    batchLabels[i] = y[order[from + i]];
                }
                mlp.forward(b);
                hb.resize(n);
                System.arraycopy(b.output(), 0, hb.input(), 0, n * h);
                head.forward(hb);
                params.zeroGradients();
                double loss = SoftmaxCrossEntropy.lossAndGradient(hb.output(), n, base.length, batchLabels, null,
                        hb.outputGradient());
                if (!Double.isFinite(loss)) {
                    throw new FsilException("pretrained-mlp training diverged (loss " + loss + ") at epoch " + epoch
                            + "; lower lr (now " + spec.learningRate() + ")");
                }
                correct += countCorrect(hb.output(), n, base.length, batchLabels);
                head.backward(hb, true);
                System.arraycopy(hb.inputGradient(), 0, b.outputGradient(), 0, n * h);
                mlp.backward(b, false);
                adam.step(params);
                lossSum += loss * n;
                images += n;
                long done = (long) epoch * batches + from / bs + 1;
                double seconds = (System.nanoTime() - t0) / 1e9;
                int seen = to;
                log.step(done, String.format(java.util.Locale.ROOT, "epoch %d/%d, loss %.4f, train accuracy %.1f%%,"
                        + " %.0f images/s", epoch + 1, spec.epochs(), lossSum / seen, 100.0 * correct / seen,
                        images / Math.max(seconds, 1e-9)));
            }
            losses.add(lossSum / order.length);
            accs.add(correct / (double) order.length);
        }
        return new Trained(mlp, mean, scale, losses, accs, (System.nanoTime() - t0) / 1e9);
    }

    private static int countCorrect(double[] logits, int n, int k, int[] y) {
        int c = 0;
        for (int r = 0; r < n; r++) {
            int best = 0;
            for (int j = 1; j < k; j++) {
                if (logits[r * k + j] > logits[r * k + best]) {
                    best = j;
                }
            }
            c += best == y[r] ? 1 : 0;
        }
        return c;
    }

    static float[] standardise(float[] x, float[] mean, float[] scale) {
        int d = mean.length;
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            int j = i % d;
            out[i] = (x[i] - mean[j]) * scale[j];
        }
        return out;
    }

    /** The frozen map's features for raw inputs {@code x}. */
    public static FeatureMatrix features(Trained t, FeatureMatrix x) {
        float[] xs = standardise(x.rawData(), t.mean(), t.scale());
        return FeatureMatrix.wrap(x.rows(), t.mlp().outputSize(), t.mlp().transform(xs, x.rows(), 512));
    }

    /** A fast 64-bit hash of the raw features and labels (detects changed data behind the same name). */
    static String contentHash(RawDataset raw) {
        long h = 0x6A09E667F3BCC909L;
        for (LabeledData part : new LabeledData[]{raw.train(), raw.test()}) {
            for (float v : part.features().rawData()) {
                h = RandomStreams.mix(h ^ Float.floatToIntBits(v));
            }
            for (int v : part.labels()) {
                h = RandomStreams.mix(h ^ v);
            }
            h = RandomStreams.mix(h + part.dimension());
        }
        return Long.toHexString(h);
    }
}
