package fsil.eval.protocol;

import fsil.api.AbstractPlugin;
import fsil.api.Capability;
import fsil.api.Experience;
import fsil.api.FsilException;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.data.FeatureSet;

import java.util.Arrays;
import java.util.List;

/**
 * Ristin et al.'s incremental protocol: k initial classes, then classes added one at a time (or in chunks) up to
 * {@code num-classes}; after every {@code retrain-every}-th step (and the last) the same method is also
 * retrained from scratch on all training data seen so far, so {@code relative_acc} = a_t / a_t(retrained) and
 * the training times of both can be compared. One unit per class order (run r: order seed + r).
 */
public final class NcmfProtocol extends AbstractPlugin implements Protocol {
    public static final Param<Integer> INITIAL = Param.integer("initial-classes", 3, 1, 1_000_000,
            "classes learned in the first step (k)");
    public static final Param<Integer> CHUNK = Param.integer("chunk", 1, 1, 1_000_000, "classes added per step");
    public static final Param<Integer> NUM_CLASSES = Param.integer("num-classes", 50, 0, 1_000_000,
            "classes at the end (0 = all classes of the pool)");
    public static final Param<Integer> RETRAIN_EVERY = Param.integer("retrain-every", 1, 1, 1_000_000,
            "retrain from scratch after every m-th step and the last (relative accuracy is measured there)");
    public static final Param<Integer> RUNS = Param.integer("runs", 1, 1, 100_000,
            "class orders; run r uses order seed + r (the paper's Fig. 8 uses 10 permutations)");
    public static final Param<ClassPools.Pool> POOL = ClassPools.option(ClassPools.Pool.ALL, "take part");

    public NcmfProtocol() {
        super("ncmf",
                "k initial classes, then one class (or chunk) at a time; accuracy relative to retraining from scratch",
                List.of(INITIAL, CHUNK, NUM_CLASSES, RETRAIN_EVERY, RUNS, POOL));
    }

    @Override
    public String incompatibility(Method method) {
        return method.capabilities().contains(Capability.CLASS_INCREMENTAL) ? null
                : "it is not class-incremental (capabilities " + method.capabilities() + ")";
    }

    @Override
    public String settingLabel(Params o) {
        return "k" + o.get(INITIAL) + " +" + o.get(CHUNK) + " to " + (o.get(NUM_CLASSES) == 0 ? "all" : o.get(NUM_CLASSES))
                + (o.get(POOL) == ClassPools.Pool.ALL ? "" : " " + Param.text(o.get(POOL)));
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params o, long orderSeed) {
        int[] pool = ClassPools.classes(data, o.get(POOL));
        int n = o.get(NUM_CLASSES) == 0 ? pool.length : o.get(NUM_CLASSES);
        int k = o.get(INITIAL);
        int chunk = o.get(CHUNK);
        if (n > pool.length || k >= n) {
            throw new FsilException("ncmf needs initial-classes < num-classes <= classes in the pool (" + pool.length
                    + " in " + data.dataset() + "); got initial-classes=" + k + ", num-classes=" + n);
        }
        int steps = (n - k + chunk - 1) / chunk;
        int[] sizes = new int[steps + 1];
        sizes[0] = k;
        for (int s = 1; s <= steps; s++) {
            sizes[s] = Math.min(chunk, n - k - (s - 1) * chunk);
        }
        ClassIncrementalProtocol.IncrementalData inc = ClassIncrementalProtocol.IncrementalData.of(data, pool);
        return new ClassIncrementalProtocol.IncrementalPlan(data, pool, inc, o.get(RUNS), Capability.CLASS_INCREMENTAL,
                o.get(RETRAIN_EVERY)) {
            @Override
            List<Experience> steps(int run) {
                int[] order = ClassIncrementalProtocol.order(pool, orderSeed + run);
                return inc.steps(Arrays.copyOf(order, n), sizes);
            }
        };
    }
}
