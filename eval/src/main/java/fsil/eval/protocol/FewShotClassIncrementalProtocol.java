package fsil.eval.protocol;

import fsil.api.AbstractPlugin;
import fsil.api.Capability;
import fsil.api.Experience;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Few-shot class-incremental learning (Tao et al., CVPR 2020): a base session with all training data of B
 * classes, then sessions of N-way K-shot novel classes; after each session, accuracy on the test data of all
 * classes seen so far. By default the dataset's committed session file is used (as the TOPIC index lists);
 * with {@code sessions-from=sampled} (or when the dataset has none) the sessions are drawn from the order seed
 * and recorded in the run's units. Runs differ in the method's train seed only (committed sessions) or also in
 * the sampled sessions (order seed + run).
 */
public final class FewShotClassIncrementalProtocol extends AbstractPlugin implements Protocol {
    public static final Param<Sessions> SOURCE = Param.option("sessions-from", Sessions.COMMITTED,
            "committed: the dataset's session file; sampled: draw base classes and N-way K-shot sessions from the "
                    + "order seed");
    public static final Param<Integer> BASE_CLASSES = Param.integer("base-classes", 0, 0, 1_000_000,
            "sampled sessions: base classes (0 = 60% of the classes, as CIFAR-100's 60 of 100)");
    public static final Param<Integer> WAYS = Param.integer("ways", 5, 1, 100_000, "sampled sessions: classes per session (N)");
    public static final Param<Integer> SHOTS = Param.integer("shots", 5, 1, 100_000, "sampled sessions: shots per class (K)");
    public static final Param<Integer> SESSIONS = Param.integer("sessions", 0, 0, 100_000,
            "sampled sessions: number of novel sessions (0 = as many as the classes allow)");
    public static final Param<Integer> RUNS = Param.integer("runs", 1, 1, 100_000, "independent runs");

    /** Where the sessions come from. */
    public enum Sessions { COMMITTED, SAMPLED }

    public FewShotClassIncrementalProtocol() {
        super("fscil", "Few-shot class-incremental (Tao et al.): base session, then N-way K-shot sessions",
                List.of(SOURCE, BASE_CLASSES, WAYS, SHOTS, SESSIONS, RUNS));
    }

    @Override
    public String incompatibility(Method method) {
        return method.capabilities().contains(Capability.FEWSHOT_CLASS_INCREMENTAL) ? null
                : "it does not support few-shot class-incremental sessions (capabilities " + method.capabilities() + ")";
    }

    @Override
    public String settingLabel(Params o) {
        return o.get(SOURCE) == Sessions.COMMITTED ? "committed sessions"
                : "B" + o.get(BASE_CLASSES) + " " + o.get(WAYS) + "-way " + o.get(SHOTS) + "-shot";
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params o, long orderSeed) {
        Optional<SplitSet.FscilSplit> committed = data.splits().fscil();
        boolean sampled = o.get(SOURCE) == Sessions.SAMPLED;
        if (!sampled && committed.isEmpty()) {
            throw new FsilException("dataset " + data.dataset() + " has no committed FSCIL session file; use "
                    + "--option sessions-from=sampled (with base-classes, ways, shots) to draw sessions from the order seed");
        }
        int[] pool = ClassPools.classes(data, ClassPools.Pool.ALL);
        ClassIncrementalProtocol.IncrementalData inc = ClassIncrementalProtocol.IncrementalData.of(data, pool);
        if (!sampled) {
            List<Experience> steps = committedSteps(data, committed.get(), inc);
            return new ClassIncrementalProtocol.IncrementalPlan(data, pool, inc, o.get(RUNS),
                    Capability.FEWSHOT_CLASS_INCREMENTAL, 0) {
                @Override
                List<Experience> steps(int run) {
                    return steps;
                }
            };
        }
        int base = o.get(BASE_CLASSES) == 0 ? (int) Math.round(pool.length * 0.6) : o.get(BASE_CLASSES);
        int ways = o.get(WAYS);
        int shots = o.get(SHOTS);
        int maxSessions = (pool.length - base) / ways;
        int sessions = o.get(SESSIONS) == 0 ? maxSessions : o.get(SESSIONS);
        if (base < 1 || sessions < 1 || sessions > maxSessions) {
            throw new FsilException("cannot make " + (o.get(SESSIONS) == 0 ? "any" : sessions) + " session(s) of "
                    + ways + " classes after " + base + " base classes from " + pool.length + " classes of "
                    + data.dataset() + ". Lower --base-classes, --ways or --option sessions=...");
        }
        for (int c : pool) {
            if (inc.trainIndex().count(c) < shots) {
                throw new FsilException("class " + data.classes().name(c) + " has " + inc.trainIndex().count(c)
                        + " training samples, fewer than shots=" + shots);
            }
        }
        return new ClassIncrementalProtocol.IncrementalPlan(data, pool, inc, o.get(RUNS),
                Capability.FEWSHOT_CLASS_INCREMENTAL, 0) {
            @Override
            List<Experience> steps(int run) {
                UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(orderSeed + run, "fscil"));
                int[] order = ClassIncrementalProtocol.order(pool, orderSeed + run);
                List<Experience> out = new ArrayList<>();
                out.add(inc.experience(0, Arrays.copyOf(order, base)));
                for (int s = 0; s < sessions; s++) {
                    int[] cls = Arrays.copyOfRange(order, base + s * ways, base + (s + 1) * ways);
                    Arrays.sort(cls);
                    int[] rows = new int[cls.length * shots];
                    for (int k = 0; k < cls.length; k++) {
                        int[] r = inc.trainIndex().rows(cls[k]).clone();
                        EpisodeSampler.partialShuffle(r, shots, rng);
                        System.arraycopy(r, 0, rows, k * shots, shots);
                    }
                    out.add(new Experience(out.size(), cls, inc.train().select(rows)));
                }
                return out;
            }
        };
    }

    private static List<Experience> committedSteps(FeatureSet data, SplitSet.FscilSplit split,
                                                   ClassIncrementalProtocol.IncrementalData inc) {
        List<Experience> out = new ArrayList<>();
        Experience baseSession = inc.experience(0, split.baseClasses());
        int[] base = baseSession.newClasses();
        out.add(baseSession);
        boolean[] seen = new boolean[data.classes().size()];
        for (int c : base) {
            seen[c] = true;
        }
        for (int s = 0; s < split.sessionSamples().size(); s++) {
            int[] rows = split.sessionSamples().get(s);
            LabeledData train = inc.train().select(rows);
            int[] cls = train.classes();
            for (int c : cls) {
                if (seen[c]) {
                    throw new FsilException("the committed FSCIL file of " + data.dataset() + " introduces class "
                            + data.classes().name(c) + " twice (session " + (s + 1) + ")");
                }
                seen[c] = true;
            }
            out.add(new Experience(out.size(), cls, train));
        }
        return out;
    }
}
