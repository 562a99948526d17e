package fsil.backbones.djl;

import ai.djl.Device;
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

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Throughput of the backbones' training step and feature extraction on random images, for
 * benchmarks/torch/conv-throughput-vs-pytorch.sh (which runs conv_throughput_torch.py, the same in PyTorch from
 * Python). Not a test: a main on the test class path, to reach the package-private classes.
 * <p>
 * Training step as {@link ConvTrainer}: zero the gradients, forward through the network and a linear head, loss
 * {@code -sum(logSoftmax(z) * onehot) / n}, backward, optimiser step (adam lr 1e-3 or sgd lr 0.05 momentum 0.9, weight
 * decay 5e-4), reading the loss back. Extraction as {@link ConvTrainer#embed}: inference mode, features copied to a
 * Java array. Both after {@code warmup} untimed iterations, the batches made once.
 * <p>
 * Arguments key=value: arch=conv4|resnet12|resnet18, width=1, batch=64, size=28, channels=1, classes=64, threads=1,
 * steps=20, warmup=5, optimizer=adam|sgd, cache=DIR (DJL cache: libtorch is extracted there; default
 * backbones-djl/target/djl-cache as the tests). Prints one line:
 * {@code fsil conv4 width=1 batch=64 size=28 threads=1 train=... img/s extract=... img/s}.
 */
public final class ConvThroughput {
    private ConvThroughput() {
    }

    public static void main(String[] args) {
        Map<String, String> a = new HashMap<>();
        for (String s : args) {
            int eq = s.indexOf('=');
            a.put(s.substring(0, eq), s.substring(eq + 1));
        }
        String arch = a.getOrDefault("arch", "conv4");
        double width = Double.parseDouble(a.getOrDefault("width", "1"));
        int batch = Integer.parseInt(a.getOrDefault("batch", "64"));
        int size = Integer.parseInt(a.getOrDefault("size", "28"));
        int channels = Integer.parseInt(a.getOrDefault("channels", "1"));
        int classes = Integer.parseInt(a.getOrDefault("classes", "64"));
        int threads = Integer.parseInt(a.getOrDefault("threads", "1"));
        int steps = Integer.parseInt(a.getOrDefault("steps", "20"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "5"));
        String optimizer = a.getOrDefault("optimizer", arch.equals("conv4") ? "adam" : "sgd");
        Path cache = Path.of(a.getOrDefault("cache", "backbones-djl/target"));
        for (String key : new String[]{"DJL_CACHE_DIR", "ENGINE_CACHE_DIR"}) {
            if (System.getProperty(key) == null && System.getenv(key) == null) {
                System.setProperty(key, cache.resolve("djl-cache").toAbsolutePath().toString());
            }
        }
        System.out.println(run(new Architecture(Architecture.Kind.valueOf(arch.toUpperCase(Locale.ROOT)), width),
                batch, size, channels, classes, threads, steps, warmup, optimizer, cache, arch));
    }

    static String run(Architecture architecture, int batch, int size, int channels, int classes, int threads,
                      int steps, int warmup, String optimizer, Path cache, String name) {
        DjlRuntime.prepare(cache, threads, 1);
        Engine engine = DjlRuntime.engine(cache);
        Device device = engine.defaultDevice();
        Random rng = new Random(1);
        float[] x = new float[batch * channels * size * size];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rng.nextGaussian();
        }
        float[] onehot = new float[batch * classes];
        for (int i = 0; i < batch; i++) {
            onehot[i * classes + rng.nextInt(classes)] = 1f;
        }
        Shape shape = new Shape(batch, channels, size, size);
        Block features = Networks.features(architecture, channels, size, size);
        SequentialBlock net = new SequentialBlock().add(features).add(Linear.builder().setUnits(classes).build());
        try (Model model = Model.newInstance("throughput", device, DjlRuntime.ENGINE)) {
            model.setBlock(net);
            Optimizer opt = optimizer.equals("sgd")
                    ? Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.05f)).optMomentum(0.9f)
                    .optWeightDecays(5e-4f).build()
                    : Optimizer.adam().optLearningRateTracker(Tracker.fixed(1e-3f)).optWeightDecays(5e-4f).build();
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                    .optOptimizer(opt).optDevices(new Device[]{device});
            double train;
            double extract;
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(shape);
                float last = 0;
                long t0 = 0;
                for (int s = 0; s < warmup + steps; s++) {
                    if (s == warmup) {
                        t0 = System.nanoTime();
                    }
                    try (NDManager sub = trainer.getManager().newSubManager()) {
                        NDArray xs = sub.create(x, shape);
                        NDArray t = sub.create(onehot, new Shape(batch, classes));
                        GradientInjection.zeroGradients(net);
                        try (GradientCollector gc = trainer.newGradientCollector()) {
                            NDArray z = trainer.forward(new NDList(xs)).singletonOrThrow();
                            NDArray l = z.logSoftmax(1).mul(t).sum().neg().div(batch);
                            gc.backward(l);
                            last = l.getFloat();
                        }
                        trainer.step();
                    }
                }
                train = (double) steps * batch / ((System.nanoTime() - t0) / 1e9);
                if (!Float.isFinite(last)) {
                    throw new IllegalStateException("non-finite loss " + last);
                }
            }
            ParameterStore ps = new ParameterStore(model.getNDManager(), false);
            long t0 = 0;
            double check = 0;
            for (int s = 0; s < warmup + steps; s++) {
                if (s == warmup) {
                    t0 = System.nanoTime();
                }
                try (NDManager sub = model.getNDManager().newSubManager()) {
                    NDArray xs = sub.create(x, shape);
                    float[] f = features.forward(ps, new NDList(xs), false).singletonOrThrow()
                            .reshape(batch, -1).toFloatArray();
                    check += f[0];
                }
            }
            extract = (double) steps * batch / ((System.nanoTime() - t0) / 1e9);
            if (!Double.isFinite(check)) {
                throw new IllegalStateException("non-finite features");
            }
            return String.format(Locale.ROOT, "fsil %s width=%s batch=%d size=%d threads=%d train=%.1f img/s"
                            + " extract=%.1f img/s", name, architecture.width(), batch, size, threads, train, extract);
        }
    }
}
