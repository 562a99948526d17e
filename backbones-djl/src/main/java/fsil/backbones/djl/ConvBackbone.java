package fsil.backbones.djl;

import fsil.api.AbstractPlugin;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.random.RandomStreams;
import fsil.data.Backbone;
import fsil.data.FeatureCache;
import fsil.data.FeatureSet;
import fsil.data.Images;
import fsil.data.RawDataset;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A convolutional backbone trained with PyTorch through DJL: the network ({@link Networks}) plus a linear head over
 * the base classes is trained by softmax cross-entropy on the base classes' training images only; the epoch is
 * chosen by few-shot nearest-class-mean accuracy on the validation classes (when the dataset has some); the frozen
 * network then embeds every sample. Features are cached under {@code <cache>/features/<key>/} exactly as
 * {@code pretrained-mlp} caches them (train.npy, test.npy, meta.json last, each written atomically), keyed by
 * (dataset name, {@link #describe(Params)}, seed, content hash of the images, labels and base/validation classes).
 *
 * <p>This class and its subclasses hold no DJL type: instantiating them (ServiceLoader, {@code fsil backbones})
 * loads nothing of DJL; libtorch is only started by {@link #apply} on a cache miss ({@link DjlRuntime}).
 */
public abstract class ConvBackbone extends AbstractPlugin implements Backbone {

    /** The optimisers. */
    public enum Optimiser { ADAM, SGD }

    /** The built-in objective: softmax cross-entropy of a linear head over the base classes. */
    public static final String CROSS_ENTROPY = "cross-entropy";

    static final Param<Integer> BATCH = Param.integer("batch", 64, 2, 1 << 16, "mini-batch size (training and embedding)");
    static final Param<Double> MOMENTUM = Param.real("momentum", 0.9, 0, 1, "SGD momentum (ignored by adam)");
    static final Param<Boolean> AUGMENT = Param.bool("augment", true,
            "random crops with zero padding (and horizontal flips of colour images) while training");
    static final Param<Integer> THREADS = Param.integer("threads", 1, 1, 1024,
            "PyTorch intra-op threads on the CPU (the results may differ between thread counts)");
    static final Param<Integer> VAL_EPISODES = Param.integer("val_episodes", 200, 0, 1_000_000,
            "few-shot episodes on the validation classes that choose the epoch (0: the last epoch)");
    static final Param<Integer> VAL_SHOTS = Param.integer("val_shots", 1, 1, 1000,
            "shots of those 5-way episodes (15 queries per class)");
    static final Param<String> OBJECTIVE = Param.text("objective", CROSS_ENTROPY,
            "training objective: cross-entropy (a linear head over the base classes), or a method's own objective on "
                    + "episodes of embeddings, written method or method(key=value;key=value), e.g. "
                    + "lsgp(tau=0.2;loss=ml) (CDKT meta-training)");
    static final Param<Integer> EPISODES = Param.integer("episodes", 100, 1, 100_000_000,
            "training episodes per epoch with a method's objective (ignored by cross-entropy)");

    /** The parameters whose defaults differ between the networks; width is null for a network without one. */
    private record Tuned(Param<Integer> epochs, Param<Optimiser> optimiser, Param<Double> lr, Param<Double> wd,
                         Param<Double> width) {
        static Tuned of(int defaultEpochs, Optimiser optimiser, double defaultLr, double defaultWd, boolean hasWidth) {
            return new Tuned(Param.integer("epochs", defaultEpochs, 1, 100_000, "passes over the base-class training images"),
                    Param.option("optimizer", optimiser, "adam, or sgd (with momentum)"),
                    Param.real("lr", defaultLr, Double.MIN_VALUE, 10, "step size"),
                    Param.real("wd", defaultWd, 0, 1, "weight decay (L2 penalty added to the gradient)"),
                    hasWidth ? Param.real("width", 1.0, 1.0 / 64, 8, "multiplier of the channel widths, each rounded "
                            + "to a multiple of 16 (e.g. 0.25 for a CPU budget)") : null);
        }

        /** Every parameter, in the order they are listed. */
        List<Param<?>> all() {
            return width == null
                    ? List.of(epochs, BATCH, optimiser, lr, wd, MOMENTUM, AUGMENT, THREADS, VAL_EPISODES, VAL_SHOTS,
                    OBJECTIVE, EPISODES)
                    : List.of(epochs, BATCH, optimiser, lr, wd, MOMENTUM, AUGMENT, THREADS, VAL_EPISODES, VAL_SHOTS,
                    width, OBJECTIVE, EPISODES);
        }
    }

    private final Tuned tuned;

    /**
     * @param id            the backbone's id
     * @param description   one line saying what it is
     * @param defaultEpochs passes over the base-class training images
     * @param optimiser     default optimiser
     * @param defaultLr     its default step size
     * @param defaultWd     default weight decay (L2, added to the gradient)
     * @param hasWidth      whether the architecture takes a width multiplier
     */
    protected ConvBackbone(String id, String description, int defaultEpochs, Optimiser optimiser, double defaultLr,
                           double defaultWd, boolean hasWidth) {
        this(id, description, Tuned.of(defaultEpochs, optimiser, defaultLr, defaultWd, hasWidth));
    }

    private ConvBackbone(String id, String description, Tuned tuned) {
        super(id, description, tuned.all());
        this.tuned = tuned;
    }

    /** The network of resolved parameters. */
    protected abstract Architecture architecture(Params params);

    /**
     * {@code id[every parameter=value]}; with cross-entropy, {@code objective} and {@code episodes} are left out (the
     * text, and so the cache keys, of cross-entropy backbones are those from before the parameters existed); with a
     * method's objective, the objective is written in full, {@code method(every setting that changes training)}
     * ({@link Objectives.Resolved#describe()}), so that the cache key covers the method's parameters.
     */
    @Override
    public String describe(Params params) {
        java.util.Map<String, String> text = new java.util.LinkedHashMap<>(params.asText());
        Objectives.Resolved o = Objectives.resolve(params.get(OBJECTIVE));
        if (o == null) {
            text.remove(OBJECTIVE.name());
            text.remove(EPISODES.name());
        } else {
            text.put(OBJECTIVE.name(), o.describe());
        }
        return new fsil.api.PluginRef(id(), text).text();
    }

    /** A resolved configuration (plain data). */
    record Config(String describe, Architecture architecture, int epochs, int batch, Optimiser optimiser, double lr,
                  double wd, double momentum, boolean augment, int threads, int valEpisodes, int valShots,
                  Objectives.Resolved objective, int episodes) {
    }

    Config config(Params p) {
        return new Config(describe(p), architecture(p), p.get(tuned.epochs()), p.get(BATCH), p.get(tuned.optimiser()),
                p.get(tuned.lr()), p.get(tuned.wd()), p.get(MOMENTUM), p.get(AUGMENT), p.get(THREADS),
                p.get(VAL_EPISODES), p.get(VAL_SHOTS), Objectives.resolve(p.get(OBJECTIVE)), p.get(EPISODES));
    }

    double width(Params p) {
        return tuned.width() == null ? 1.0 : p.get(tuned.width());
    }

    @Override
    public FeatureSet apply(RawDataset raw, Params params, long seed, Path cacheDir) {
        Config c = config(params);
        Images images = raw.images();
        if (images == null) {
            throw new FsilException("backbone " + id() + " needs images, dataset " + raw.name() + " has none (a"
                    + " feature directory gives them in images.npy, n x h x w or n x c x h x w)");
        }
        // net=2: fractional widths round to multiples of 16 channels (Architecture), so the ResNets of an entry
        // written before that are other networks
        String key = raw.name() + "|" + c.describe() + "|seed=" + seed + "|data=" + contentHash(raw) + "|net=2";
        return FeatureCache.load(raw, c.describe(), key, seed, cacheDir, () -> {
            ConvTrainer.Result r = c.objective() == null ? ConvTrainer.train(id(), raw, c, seed, cacheDir)
                    : EpisodicTrainer.train(id(), raw, c, seed, cacheDir);
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("validation_classes", raw.splits().validation().length);
            meta.put("image_shape", images.shapeText());
            meta.putAll(r.meta());
            return new FeatureCache.Computed(r.train(), r.test(), meta);
        });
    }

    /** A 64-bit hash of what training sees: image shape and pixels, labels, base and validation classes. */
    static String contentHash(RawDataset raw) {
        Images im = raw.images();
        long h = RandomStreams.mix(0x510E527FADE682D1L ^ im.channels());
        h = RandomStreams.mix(h ^ im.height());
        h = RandomStreams.mix(h ^ im.width());
        FeatureMatrix[] pixels = {im.train(), im.test()};
        LabeledData[] parts = {raw.train(), raw.test()};
        for (int p = 0; p < 2; p++) {
            for (float v : pixels[p].rawData()) {
                h = RandomStreams.mix(h ^ Float.floatToIntBits(v));
            }
            for (int v : parts[p].labels()) {
                h = RandomStreams.mix(h ^ v);
            }
            h = RandomStreams.mix(h + pixels[p].rows());
        }
        for (int[] classes : new int[][]{raw.splits().base(), raw.splits().validation()}) {
            for (int v : classes) {
                h = RandomStreams.mix(h ^ v);
            }
            h = RandomStreams.mix(h + classes.length);
        }
        return Long.toHexString(h);
    }
}
