package fsil.eval.protocol;

import fsil.api.AbstractPlugin;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Episode;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.QueryCounts;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * K-way L-shot few-shot episodes with Q queries in total from one class split (README.md, <i>Protocols and
 * metrics</i>).
 *
 * <p>Episode i of a setting is a pure function of (data, options, order seed, i): classes = the first K of a
 * random permutation of the split's classes; query counts = Q/K each (balanced) or Dirichlet(alpha 1_K)
 * proportions turned into integers by {@link fsil.core.random.QueryCounts}, redrawn (as the BAVARDAGE sampler
 * does) while a class lacks the samples for its L shots plus its queries; per class, a random subset gives the
 * L support and the count query samples, disjoint. Samples are drawn from the train and test parts of a class
 * together (the split's classes are unseen by the backbone either way). Queries are shuffled. Methods with the
 * inductive capability get {@code jointQueries = false} (their predictions are per query by contract);
 * transductive-only methods get the whole query set jointly.
 */
public final class FewShotProtocol extends AbstractPlugin implements Protocol {
    public static final Param<Integer> WAYS = Param.integer("ways", 5, 2, 10_000, "classes per episode (K)");
    public static final Param<Integer> SHOTS = Param.integer("shots", 1, 1, 10_000, "support samples per class (L)");
    public static final Param<Integer> QUERIES = Param.integer("queries", 75, 1, 1_000_000,
            "query samples per episode in total (Q; 15 per class for 5-way is the usual 75)");
    public static final Param<Allocation> ALLOCATION = Param.option("query-allocation", Allocation.BALANCED,
            "balanced: Q/K queries per class; dirichlet: counts from Dirichlet(alpha) proportions (Veilleux et al.)");
    public static final Param<Double> ALPHA = Param.real("alpha", 2.0, 1e-6, 1e6,
            "Dirichlet concentration for query-allocation=dirichlet");
    public static final Param<Integer> EPISODES = Param.integer("episodes", 600, 1, 100_000_000,
            "number of episodes (the transductive literature uses 10,000; meta-learning 600 x 5 seeds)");
    /** Episodes stored and resumed together; 0 (the default) chooses {@link #defaultPerUnit}. */
    public static final Param<Integer> EPISODES_PER_UNIT = Param.integer("episodes-per-unit", 0, 0, 1_000_000,
            "episodes stored (and resumed) together as one unit of the run; 0: 200, or a 50th of a longer run up to "
                    + "1,000; does not change any number");

    /**
     * The default block of episodes: 200, or a 50th of a longer run up to 1,000. A unit's row costs the runner about
     * as much as a few NCM episodes on real features (its adaptive-ECE micro-bins fill whatever the block's size),
     * so long runs take larger blocks; 50 units per setting keep many threads busy to the end, and a resume redoes
     * at most a block.
     */
    public static int defaultPerUnit(int episodes) {
        return Math.max(200, Math.min(1000, (int) ((episodes + 49L) / 50)));
    }

    public static final Param<ClassPools.Pool> SPLIT = ClassPools.option(ClassPools.Pool.NOVEL, "episodes are drawn from");

    /** How the Q queries are shared among the K classes. */
    public enum Allocation { BALANCED, DIRICHLET }

    public FewShotProtocol() {
        super("fewshot", "K-way L-shot episodes with Q queries (balanced or Dirichlet), inductive or transductive",
                List.of(WAYS, SHOTS, QUERIES, ALLOCATION, ALPHA, EPISODES, SPLIT, EPISODES_PER_UNIT));
    }

    @Override
    public java.util.Set<String> executionOptions() {
        return java.util.Set.of(EPISODES_PER_UNIT.name());
    }

    @Override
    public String incompatibility(Method method) {
        if (method.capabilities().contains(Capability.INDUCTIVE_FEWSHOT)
                || method.capabilities().contains(Capability.TRANSDUCTIVE_FEWSHOT)) {
            return null;
        }
        return "it does not support few-shot episodes (capabilities " + method.capabilities() + ")";
    }

    @Override
    public String settingLabel(Params o) {
        return o.get(WAYS) + "-way " + o.get(SHOTS) + "-shot Q" + o.get(QUERIES) + " " + Param.text(o.get(ALLOCATION))
                + (o.get(ALLOCATION) == Allocation.DIRICHLET ? "(" + o.get(ALPHA) + ")" : "");
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params o, long orderSeed) {
        int ways = o.get(WAYS);
        int shots = o.get(SHOTS);
        int queries = o.get(QUERIES);
        boolean dirichlet = o.get(ALLOCATION) == Allocation.DIRICHLET;
        int[] pool = ClassPools.classes(data, o.get(SPLIT));
        if (pool.length < ways) {
            throw new FsilException(Param.text(o.get(SPLIT)) + " split of " + data.dataset() + " has " + pool.length
                    + " classes, fewer than ways=" + ways + ". Use --ways " + pool.length + " or fewer.");
        }
        if (!dirichlet && queries % ways != 0) {
            throw new FsilException("balanced allocation needs queries divisible by ways: queries=" + queries
                    + ", ways=" + ways + ". Use --queries " + (queries / ways) * ways + " or --query-allocation dirichlet.");
        }
        PooledRows rows = new PooledRows(data.train(), data.test());
        int need = shots + (queries + ways - 1) / ways;
        int tooSmall = 0;
        int smallest = Integer.MAX_VALUE;
        int smallestClass = -1;
        for (int c : pool) {
            int n = rows.count(c);
            if (n < need) {
                tooSmall++;
            }
            if (n < smallest) {
                smallest = n;
                smallestClass = c;
            }
        }
        if (tooSmall > 0) {
            throw new FsilException(tooSmall + " of the " + pool.length + " " + Param.text(o.get(SPLIT)) + " classes of "
                    + data.dataset() + " have fewer than shots + queries/ways = " + need + " samples (smallest: class "
                    + data.classes().name(smallestClass) + " with " + smallest + "). Lower --shots or --queries; classes "
                    + "are never silently shrunk.");
        }
        long settingSeed = RandomStreams.derive(orderSeed, "fewshot:" + settingLabel(o));
        return new Plan(data, o, pool, rows, settingSeed, dirichlet);
    }

    private static final class Plan implements ProtocolPlan {
        private final FeatureSet data;
        private final int ways;
        private final int shots;
        private final int queries;
        private final int episodes;
        private final int[] pool;
        private final PooledRows rows;
        private final EpisodeSampler sampler;
        private final EpisodeSampler.Queries allocation;
        private final long seed;
        private final int perUnit;

        Plan(FeatureSet data, Params o, int[] pool, PooledRows rows, long seed, boolean dirichlet) {
            this.data = data;
            this.ways = o.get(WAYS);
            this.shots = o.get(SHOTS);
            this.queries = o.get(QUERIES);
            this.episodes = o.get(EPISODES);
            this.pool = pool;
            this.rows = rows;
            int[][] codes = new int[pool.length][];
            for (int i = 0; i < pool.length; i++) {
                codes[i] = rows.codes(pool[i]);
            }
            this.sampler = new EpisodeSampler(pool, codes);
            this.allocation = dirichlet ? EpisodeSampler.Queries.dirichlet(queries, o.get(ALPHA))
                    : EpisodeSampler.Queries.balanced(queries);
            this.seed = seed;
            this.perUnit = o.get(EPISODES_PER_UNIT) > 0 ? o.get(EPISODES_PER_UNIT) : defaultPerUnit(episodes);
        }

        @Override
        public int tasks() {
            return episodes;
        }

        @Override
        public int tasksPerUnit() {
            return perUnit;
        }

        @Override
        public Background background(long trainSeed, Optional<Path> cacheDir) {
            return ClassPools.background(data, pool, trainSeed, cacheDir);
        }

        /** The labelled episode of unit {@code index}: support, queries and the hidden query labels. */
        LabeledEpisode sample(int index) {
            EpisodeSampler.Episode e = sampler.sample(RandomStreams.child(seed, index), ways, shots, allocation);
            if (e == null) {
                throw new FsilException("could not draw Dirichlet query counts that the classes' sizes allow in "
                        + QueryCounts.MAX_DIRICHLET_DRAWS + " attempts (queries=" + queries + ", shots=" + shots
                        + "). Use fewer --queries or a dataset with more samples per class.");
            }
            return new LabeledEpisode(rows.gather(e.support()), rows.gather(e.query()));
        }

        @Override
        public LabeledTask task(int index, Set<Capability> capabilities) {
            LabeledEpisode e = sample(index);
            boolean joint = !capabilities.contains(Capability.INDUCTIVE_FEWSHOT);
            return new LabeledTask.Episodic(new Episode(e.support(), e.queries().features(), ways, shots, joint),
                    e.queries().labels());
        }
    }

    /** Support and labelled queries of one episode. */
    record LabeledEpisode(LabeledData support, LabeledData queries) {
    }

    /** For tests and notebooks: the labelled episode {@code index} (support, labelled queries) of a plan of this protocol. */
    public static LabeledData[] sampleEpisode(ProtocolPlan plan, int index) {
        LabeledEpisode e = ((Plan) plan).sample(index);
        return new LabeledData[]{e.support(), e.queries()};
    }
}
