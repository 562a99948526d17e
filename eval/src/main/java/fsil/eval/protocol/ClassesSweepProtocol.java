package fsil.eval.protocol;

import fsil.api.AbstractPlugin;
import fsil.api.Capability;
import fsil.api.Experience;
import fsil.api.FsilException;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;

import java.util.Arrays;
import java.util.List;

/**
 * GP-Tree's Table 1 protocol: multi-class accuracy on fixed features for a number of classes C; run r draws the
 * C classes as the first C of a random order (seed derived from the order seed, C and r), trains on all their
 * training samples in one step and tests on their test samples. Give several values ({@code --option
 * classes=4,6,8,10,20,30,40,50,60}) to sweep.
 */
public final class ClassesSweepProtocol extends AbstractPlugin implements Protocol {
    public static final Param<Integer> CLASSES = Param.integer("classes", 10, 2, 1_000_000,
            "number of classes C (give a list to sweep, e.g. 4,6,8,10,20,30,40,50,60)");
    public static final Param<Integer> RUNS = Param.integer("runs", 10, 1, 100_000,
            "class subsets (seeds) per number of classes");
    public static final Param<ClassPools.Pool> POOL = ClassPools.option(ClassPools.Pool.ALL, "the subsets are drawn from");

    public ClassesSweepProtocol() {
        super("gp-classes",
                "Accuracy on fixed features for growing numbers of classes, class subsets varying by seed (GP-Tree Table 1)",
                List.of(CLASSES, RUNS, POOL));
    }

    @Override
    public String incompatibility(Method method) {
        return method.capabilities().contains(Capability.CLASS_INCREMENTAL)
                || method.capabilities().contains(Capability.FEWSHOT_CLASS_INCREMENTAL) ? null
                : "it cannot learn a labelled training set outside an episode (capabilities " + method.capabilities() + ")";
    }

    @Override
    public String settingLabel(Params o) {
        return "classes=" + o.get(CLASSES);
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params o, long orderSeed) {
        int[] pool = ClassPools.classes(data, o.get(POOL));
        int c = o.get(CLASSES);
        if (c > pool.length) {
            throw new FsilException("classes=" + c + " but the " + Param.text(o.get(POOL)) + " pool of " + data.dataset() + " has "
                    + pool.length + " classes");
        }
        ClassIncrementalProtocol.IncrementalData inc = ClassIncrementalProtocol.IncrementalData.of(data, pool);
        long seed = RandomStreams.derive(orderSeed, "gp-classes:" + c);
        return new ClassIncrementalProtocol.IncrementalPlan(data, pool, inc, o.get(RUNS), Capability.CLASS_INCREMENTAL, 0) {
            @Override
            List<Experience> steps(int run) {
                int[] order = ClassIncrementalProtocol.order(pool, RandomStreams.derive(seed, run));
                return inc.steps(Arrays.copyOf(order, c), new int[]{c});
            }
        };
    }
}
