package fsil.eval.protocol;

import fsil.api.AbstractPlugin;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Experience;
import fsil.api.ExperienceStream;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Class-incremental learning, the UCIR/PyCIL "B-half" protocol: the classes of the pool in a random order
 * (run r uses order seed + r), the first half (or {@code base-classes}) in step 0, the rest in {@code steps}
 * equal steps (when the rest does not divide evenly, earlier steps get one class more); after each step the
 * session is evaluated on the test data of all classes seen so far. One unit per run.
 */
public final class ClassIncrementalProtocol extends AbstractPlugin implements Protocol {
    public static final Param<Integer> STEPS = Param.integer("steps", 5, 1, 100_000,
            "incremental steps after the base step (S)");
    public static final Param<Integer> BASE_CLASSES = Param.integer("base-classes", 0, 0, 1_000_000,
            "classes in step 0; 0 = half of the classes (B-half)");
    public static final Param<Integer> NUM_CLASSES = Param.integer("num-classes", 0, 0, 1_000_000,
            "use only the first N classes of the order; 0 = all classes of the pool");
    public static final Param<Integer> RUNS = Param.integer("runs", 1, 1, 100_000,
            "independent runs; run r uses class-order seed order_seed + r");
    public static final Param<ClassPools.Pool> POOL = ClassPools.option(ClassPools.Pool.ALL, "take part");

    public ClassIncrementalProtocol() {
        super("cil",
                "Class-incremental B-half: half the classes first, then S equal steps; evaluate on all seen classes",
                List.of(STEPS, BASE_CLASSES, NUM_CLASSES, RUNS, POOL));
    }

    @Override
    public String incompatibility(Method method) {
        return method.capabilities().contains(Capability.CLASS_INCREMENTAL) ? null
                : "it is not class-incremental (capabilities " + method.capabilities() + ")";
    }

    @Override
    public String settingLabel(Params o) {
        return (o.get(BASE_CLASSES) == 0 ? "B-half" : "B" + o.get(BASE_CLASSES)) + " S" + o.get(STEPS)
                + (o.get(NUM_CLASSES) > 0 ? " C" + o.get(NUM_CLASSES) : "")
                + (o.get(POOL) == ClassPools.Pool.ALL ? "" : " " + Param.text(o.get(POOL)));
    }

    /** Sizes of step 0 and the S later steps for C classes. */
    static int[] stepSizes(int classes, int base, int steps) {
        int b = base == 0 ? classes / 2 : base;
        int rest = classes - b;
        if (b < 1 || rest < steps) {
            throw new FsilException("cannot split " + classes + " classes into a base step of " + b + " and " + steps
                    + " incremental steps: each step needs at least one class. Use fewer --steps or --base-classes.");
        }
        int[] sizes = new int[steps + 1];
        sizes[0] = b;
        for (int s = 0; s < steps; s++) {
            sizes[s + 1] = rest / steps + (s < rest % steps ? 1 : 0);
        }
        return sizes;
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params o, long orderSeed) {
        int[] pool = ClassPools.classes(data, o.get(POOL));
        int n = o.get(NUM_CLASSES) == 0 ? pool.length : o.get(NUM_CLASSES);
        if (n > pool.length) {
            throw new FsilException("num-classes=" + n + " but the " + Param.text(o.get(POOL)) + " pool of " + data.dataset()
                    + " has " + pool.length + " classes");
        }
        int[] sizes = stepSizes(n, o.get(BASE_CLASSES), o.get(STEPS));
        IncrementalData inc = IncrementalData.of(data, pool);
        return new IncrementalPlan(data, pool, inc, o.get(RUNS), Capability.CLASS_INCREMENTAL, 0) {
            @Override
            List<Experience> steps(int run) {
                int[] order = order(pool, orderSeed + run);
                return inc.steps(Arrays.copyOf(order, n), sizes);
            }
        };
    }

    /** The pool's classes in the order used by the run whose order seed is {@code seed}. */
    public static int[] order(int[] pool, long seed) {
        int[] perm = RandomStreams.permutation(pool.length, RandomStreams.create(seed));
        int[] out = new int[pool.length];
        for (int i = 0; i < pool.length; i++) {
            out[i] = pool[perm[i]];
        }
        return out;
    }

    /** Train/test data with per-class indices, shared by the incremental protocols. */
    record IncrementalData(LabeledData train, LabeledData test, ClassIndex trainIndex) {
        static IncrementalData of(FeatureSet data, int[] pool) {
            ClassIndex test = new ClassIndex(data.test());
            ClassIndex train = new ClassIndex(data.train());
            for (int c : pool) {
                if (train.count(c) == 0 || test.count(c) == 0) {
                    throw new FsilException("class " + data.classes().name(c) + " of " + data.dataset() + " has "
                            + train.count(c) + " training and " + test.count(c) + " test samples; incremental "
                            + "protocols need both. Choose another --option classes-from=...");
                }
            }
            return new IncrementalData(data.train(), data.test(), train);
        }

        /** Experiences of the given sizes over the ordered classes. */
        List<Experience> steps(int[] orderedClasses, int[] sizes) {
            List<Experience> out = new ArrayList<>();
            int at = 0;
            for (int size : sizes) {
                int[] cls = Arrays.copyOfRange(orderedClasses, at, at + size);
                at += size;
                out.add(experience(out.size(), cls));
            }
            return out;
        }

        /** Experience {@code index}: all training rows of the given classes. */
        Experience experience(int index, int[] classes) {
            int[] sorted = classes.clone();
            Arrays.sort(sorted);
            return new Experience(index, sorted, trainIndex.select(train, sorted));
        }
    }

    /** A plan whose units are runs of one incremental stream each. */
    abstract static class IncrementalPlan implements ProtocolPlan {
        final FeatureSet data;
        final int[] pool;
        final IncrementalData inc;
        final int runs;
        final Capability kind;
        final int retrainEvery;

        IncrementalPlan(FeatureSet data, int[] pool, IncrementalData inc, int runs, Capability kind, int retrainEvery) {
            this.data = data;
            this.pool = pool;
            this.inc = inc;
            this.runs = runs;
            this.kind = kind;
            this.retrainEvery = retrainEvery;
        }

        abstract List<Experience> steps(int run);

        @Override
        public int tasks() {
            return runs;
        }

        @Override
        public Background background(long trainSeed, Optional<Path> cacheDir) {
            return ClassPools.background(data, pool, trainSeed, cacheDir);
        }

        @Override
        public LabeledTask task(int index, Set<Capability> capabilities) {
            return new LabeledTask.Incremental(new ExperienceStream(kind, data.dimension(), steps(index)), inc.test(),
                    retrainEvery);
        }
    }
}
