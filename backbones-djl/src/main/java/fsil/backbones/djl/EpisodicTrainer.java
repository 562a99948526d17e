package fsil.backbones.djl;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import fsil.api.EmbeddingObjective;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.ProgressSink;
import fsil.core.progress.TrainingLog;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import fsil.data.Images;
import fsil.data.RawDataset;
import org.apache.commons.rng.UniformRandomProvider;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Training of the network with a method's own objective ({@link EmbeddingObjective}, e.g. CDKT's): per epoch
 * {@code episodes} episodes of the base classes' training images, drawn as the objective's {@code sampling()} says
 * (classes with fewer than shots + 1 images are left out; {@code ways} capped by the classes left), each embedded
 * by the network in training mode (batch norm on the episode's statistics, augmentation as with cross-entropy),
 * scored in Java, its gradient with respect to the embeddings back-propagated ({@link GradientInjection#objective})
 * and one optimiser step taken on the network, and one by the objective on its own parameters. An episode the
 * objective cannot score (non-finite loss) is skipped and counted. After every epoch the frozen network embeds the
 * validation classes' images and the method's own test-time inference ({@code Training.predict}; nearest class mean
 * when it has none) scores the fixed validation episodes; the best epoch's network and objective parameters are
 * kept (the first on ties); a validation episode the method cannot classify (its inference throws, e.g. a
 * cosine kernel on an image embedded at 0) scores 0 and is counted. Seeds: epoch e's episodes {@code child(derive(seed, "episodes"), e)}, its augmentation
 * {@code child(derive(seed, "augment"), e)}, the objective's randomness in episode i (over all epochs)
 * {@code derive(derive(seed, "objective"), i)}, the validation episodes as with cross-entropy.
 */
final class EpisodicTrainer {

    private EpisodicTrainer() {
    }

    /** The objective's training state, counting the time spent in {@link #loss} (the Java objective's share). */
    private static final class TimedTraining implements EmbeddingObjective.Training {
        private final EmbeddingObjective.Training inner;
        long nanos;

        TimedTraining(EmbeddingObjective.Training inner) {
            this.inner = inner;
        }

        @Override
        public double loss(EmbeddingObjective.Episode episode, double[] gradient) {
            long t = System.nanoTime();
            try {
                return inner.loss(episode, gradient);
            } finally {
                nanos += System.nanoTime() - t;
            }
        }

        @Override
        public void update() {
            inner.update();
        }

        @Override
        public Map<String, Double> state() {
            return inner.state();
        }

        @Override
        public void restore(Map<String, Double> state) {
            inner.restore(state);
        }

        @Override
        public double[] predict(double[] support, int[] supportLabels, double[] queries, int dimension, int ways,
                                long seed) {
            return inner.predict(support, supportLabels, queries, dimension, ways, seed);
        }
    }

    static ConvTrainer.Result train(String id, RawDataset raw, ConvBackbone.Config c, long seed, Path cacheDir) {
        long t0 = System.nanoTime();
        Images im = raw.images();
        int[] base = raw.splits().base();
        EmbeddingObjective objective = c.objective().objective();
        EmbeddingObjective.Sampling sampling = objective.sampling();
        int[] labels = raw.train().labels();
        List<Integer> usable = new ArrayList<>();
        List<int[]> byClass = new ArrayList<>();
        for (int k : base) {
            int[] r = IntStream.range(0, labels.length).filter(i -> labels[i] == k).toArray();
            if (r.length >= sampling.shots() + 1) {
                usable.add(k);
                byClass.add(r);
            }
        }
        if (usable.size() < 2) {
            throw new FsilException("backbone " + id + " with objective " + c.objective().method() + " needs at least"
                    + " 2 base classes with " + (sampling.shots() + 1) + " training images or more (shots + 1);"
                    + " dataset " + raw.name() + " has " + usable.size());
        }
        int ways = Math.min(sampling.ways(), usable.size());
        EpisodeSampler sampler = new EpisodeSampler(usable.stream().mapToInt(Integer::intValue).toArray(),
                byClass.toArray(new int[0][]));
        int[] baseRows = IntStream.range(0, labels.length).filter(i -> {
            for (int k : base) {
                if (labels[i] == k) {
                    return true;
                }
            }
            return false;
        }).toArray();
        ConvTrainer.Input input = new ConvTrainer.Input(im, baseRows);
        DjlRuntime.prepare(cacheDir, c.threads(), seed);
        Engine engine = DjlRuntime.engine(cacheDir);
        Device device = engine.defaultDevice();
        int maxRows = ways * (sampling.shots() + sampling.queries());
        Block features = Networks.features(c.architecture(), im.channels(), im.height(), im.width());
        ConvTrainer.Validation validation = ConvTrainer.Validation.of(raw, c, seed);
        List<Double> losses = new ArrayList<>();
        List<Double> valAccs = new ArrayList<>();
        List<Map<String, Double>> states = new ArrayList<>();
        int best = -1;
        byte[] bestParams = null;
        Map<String, Double> bestState = null;
        int skipped = 0;
        long stepNanos = 0;
        double imagesPerSecond;
        String what = "training backbone " + c.describe() + " on " + raw.name();
        try (Model model = Model.newInstance(id, device, DjlRuntime.ENGINE)) {
            model.setBlock(features);
            Optimizer opt = c.optimiser() == ConvBackbone.Optimiser.SGD
                    ? Optimizer.sgd().setLearningRateTracker(Tracker.fixed((float) c.lr()))
                    .optMomentum((float) c.momentum()).optWeightDecays((float) c.wd()).build()
                    : Optimizer.adam().optLearningRateTracker(Tracker.fixed((float) c.lr()))
                    .optWeightDecays((float) c.wd()).build();
            // the loss of the configuration is never used: the objective's gradient is injected
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.l2Loss())
                    .optOptimizer(opt).optDevices(new Device[]{device});
            TimedTraining training;
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(new Shape(maxRows, im.channels(), im.height(), im.width()));
                int dimension = Math.toIntExact(features.getOutputShapes(new Shape[]{
                        new Shape(maxRows, im.channels(), im.height(), im.width())})[0].get(1));
                training = new TimedTraining(objective.start(dimension));
                long tTrain = System.nanoTime();
                TrainingLog log = new TrainingLog(ProgressSink.LOGGING, what, "episodes", (long) c.epochs() * c.episodes());
                float[] buf = new float[maxRows * im.pixels()];
                long episodeSeed = RandomStreams.derive(seed, "episodes");
                long augmentSeed = RandomStreams.derive(seed, "augment");
                long objectiveSeed = RandomStreams.derive(seed, "objective");
                long validationSeed = RandomStreams.derive(seed, "objective-validation");
                long images = 0;
                long validationNanos = 0;
                double lastVal = Double.NaN;
                for (int epoch = 0; epoch < c.epochs(); epoch++) {
                    UniformRandomProvider rng = RandomStreams.child(episodeSeed, epoch);
                    UniformRandomProvider aug = c.augment() ? RandomStreams.child(augmentSeed, epoch) : null;
                    double lossSum = 0;
                    int scored = 0;
                    for (int e = 0; e < c.episodes(); e++) {
                        long s0 = System.nanoTime();
                        EpisodeSampler.Episode ep = sampler.sample(rng, ways, sampling.shots(),
                                EpisodeSampler.Queries.upTo(sampling.queries()));
                        int ns = ep.support().length;
                        int n = ns + ep.query().length;
                        int[] rows = new int[n];
                        int[] y = new int[n];
                        System.arraycopy(ep.support(), 0, rows, 0, ns);
                        System.arraycopy(ep.query(), 0, rows, ns, n - ns);
                        System.arraycopy(ep.supportClass(), 0, y, 0, ns);
                        System.arraycopy(ep.queryClass(), 0, y, ns, n - ns);
                        input.fill(buf, im.train(), rows, 0, n, aug);
                        long index = (long) epoch * c.episodes() + e;
                        double loss;
                        try (NDManager sub = trainer.getManager().newSubManager()) {
                            NDArray x = sub.create(java.util.Arrays.copyOf(buf, n * im.pixels()),
                                    new Shape(n, im.channels(), im.height(), im.width()));
                            GradientInjection.zeroGradients(features);
                            try (GradientCollector gc = trainer.newGradientCollector()) {
                                NDArray z = trainer.forward(new NDList(x)).singletonOrThrow();
                                loss = GradientInjection.objective(gc, z, training, y, ns, ways,
                                        RandomStreams.derive(objectiveSeed, index));
                            }
                            if (Double.isFinite(loss)) {
                                trainer.step();
                                training.update();
                            }
                        }
                        stepNanos += System.nanoTime() - s0;
                        images += n;
                        if (Double.isFinite(loss)) {
                            lossSum += loss;
                            scored++;
                        } else {
                            skipped++;
                        }
                        double seconds = (System.nanoTime() - tTrain) / 1e9;
                        log.step(index + 1, String.format(Locale.ROOT,
                                "epoch %d/%d, loss %.4f, %d skipped, %.0f images/s%s", epoch + 1, c.epochs(),
                                scored == 0 ? Double.NaN : lossSum / scored, skipped,
                                images / Math.max(seconds, 1e-9), Double.isNaN(lastVal) ? ""
                                        : String.format(Locale.ROOT, ", validation %d-shot accuracy %.1f%% (epoch %d)",
                                        c.valShots(), 100 * lastVal, epoch)));
                    }
                    if (scored == 0) {
                        throw new FsilException("backbone " + id + ": the objective " + c.objective().method()
                                + " could score no episode of epoch " + (epoch + 1) + " (non-finite losses); lower lr"
                                + " (now " + c.lr() + ") or change the objective's parameters");
                    }
                    losses.add(lossSum / scored);
                    states.add(training.state());
                    if (validation != null) {
                        long v0 = System.nanoTime();
                        lastVal = validation.accuracy(ConvTrainer.embed(features, model.getNDManager(), input,
                                im.train(), validation.rows, Math.max(maxRows, 64), null), training, validationSeed);
                        valAccs.add(lastVal);
                        if (best < 0 || lastVal > valAccs.get(best)) {
                            best = epoch;
                            bestParams = ConvTrainer.save(features);
                            bestState = training.state();
                        }
                        validationNanos += System.nanoTime() - v0;
                    }
                }
                imagesPerSecond = images / Math.max((System.nanoTime() - tTrain - validationNanos) / 1e9, 1e-9);
            }
            if (bestParams != null && best != c.epochs() - 1) {
                ConvTrainer.load(features, model.getNDManager(), bestParams);
                training.restore(bestState);
            }
            int all = raw.train().size() + raw.test().size();
            int bs = Math.max(maxRows, 256);
            TrainingLog elog = new TrainingLog(ProgressSink.LOGGING, "embedding with " + c.describe() + " on " + raw.name(), "images", all);
            FeatureMatrix train = ConvTrainer.embed(features, model.getNDManager(), input, im.train(),
                    IntStream.range(0, raw.train().size()).toArray(), bs, done -> elog.step(done, null));
            int offset = raw.train().size();
            FeatureMatrix test = ConvTrainer.embed(features, model.getNDManager(), input, im.test(),
                    IntStream.range(0, raw.test().size()).toArray(), bs, done -> elog.step(offset + done, null));
            for (FeatureMatrix f : new FeatureMatrix[]{train, test}) {
                int bad = f.firstNonFinite();
                if (bad >= 0) {
                    throw new FsilException("backbone " + id + " gave a non-finite feature (value " + bad + " of the "
                            + (f == train ? "training" : "test") + " features); nothing was cached");
                }
            }
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("train_seconds", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            meta.put("training_images_per_second", Math.round(imagesPerSecond));
            // of the training episodes (validation excluded): the Java objective's loss and dL/dz, and whole steps
            // (drawing, augmentation, forward, objective, backward, both optimiser steps)
            meta.put("objective_seconds", Math.round(training.nanos / 1e6) / 1e3);
            meta.put("step_seconds", Math.round(stepNanos / 1e6) / 1e3);
            meta.put("objective", c.objective().describe());
            meta.put("episode", ways + "-way " + sampling.shots() + "-shot, up to " + sampling.queries()
                    + " queries per class, " + c.episodes() + " episodes per epoch");
            meta.put("epoch_loss", losses);
            meta.put("skipped_episodes", skipped);
            meta.put("epoch_objective_state", states);
            meta.put("epoch_validation_accuracy", valAccs);
            meta.put("failed_validation_episodes", validation == null ? 0 : validation.failed);
            meta.put("validation", validation == null ? "none (the last epoch is kept)"
                    : validation.support.length + " episodes, " + validation.ways + "-way " + validation.shots
                    + "-shot, " + (validation.nearestMean ? "nearest class mean (" + c.objective().method()
                    + "'s objective offers no test-time inference)" : "the objective's test-time inference ("
                    + c.objective().method() + ")") + ", on the validation classes' training samples");
            int chosen = best < 0 ? c.epochs() - 1 : best;
            meta.put("chosen_epoch", chosen + 1);
            meta.put("objective_state", best < 0 ? training.state() : bestState);
            meta.put("feature_dimension", train.cols());
            meta.put("engine", engine.getEngineName() + " " + engine.getVersion());
            meta.put("device", device.toString());
            meta.put("threads", c.threads());
            return new ConvTrainer.Result(train, test, meta);
        }
    }
}
