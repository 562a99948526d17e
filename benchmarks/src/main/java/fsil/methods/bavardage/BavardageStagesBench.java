package fsil.methods.bavardage;

import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.core.bench.MicroBenchmark;
import fsil.core.cluster.SoftKMeans;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import fsil.core.synthetic.GaussianClasses;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where one BAVARDAGE task's time goes (5-way 5-shot, 75 queries, so N = 100 rows, at D = 128 as the glyphs features;
 * synthetic classes from core's {@link GaussianClasses#backboneFeatures}; the authors' defaults {@code preset=official,
 * eps_softmax=true}; one thread): the whole task through the method's learner ({@code episode}, the reference), and
 * each stage of {@link BavardageSolver} on the same tasks: the Gram matrix X X^T, the task span (Gram matrix, pivoted
 * Cholesky factor and basis), the soft k-means initialisation, the triangular solve L^-1 U with the base scatter's
 * factor, B^T B, the r x r eigendecomposition the s_max clamp needs, the whole restricted whitening (the last three and
 * the rotation), and the PLDA + VB loop ({@code finish}). Every stage cycles through the same {@value #TASKS} tasks,
 * prepared in the setup, so the stage scores add up to about the {@code episode} score.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class BavardageStagesBench extends MicroBenchmark {
    static final int TASKS = 50;
    static final int WAYS = 5;
    static final int SHOTS = 5;
    static final int QUERIES_PER_CLASS = 15;

    @Param("128")
    public int dim;

    private BaseStatistics base;
    BavardageConfig config;
    Learner learner;
    final List<LabeledEpisode> episodes = new ArrayList<>();
    private final List<double[]> rows = new ArrayList<>();
    private final List<TaskSpan> spans = new ArrayList<>();
    private final List<double[]> solved = new ArrayList<>();
    private final List<double[]> products = new ArrayList<>();
    final List<BavardageSolver.Prepared> prepared = new ArrayList<>();
    private int[] supportClass;
    private int n;
    private int next;

    @Setup
    public void setup() {
        GaussianClasses model = GaussianClasses.backboneFeatures(dim, 1, 0.6, 8, 1.0).build();
        LabeledData novel = model.classes(64, 84, 100, 0);
        EpisodeSampler sampler = EpisodeSampler.of(novel);
        base = BaseStatistics.fromBase(model.classes(0, 64, 100, 0), Preprocessing.CODE);
        BavardageMethod method = new BavardageMethod();
        config = BavardageConfig.from(method.params(Map.of("preset", "official", "eps_softmax", "true")));
        learner = BavardageMethod.learner(config, base);
        BavardageSolver solver = new BavardageSolver(config, base);
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(1, "stages"));
        EpisodeSampler.Queries counts = EpisodeSampler.Queries.upTo(QUERIES_PER_CLASS);
        for (int t = 0; t < TASKS; t++) {
            LabeledEpisode e = LabeledEpisode.of(novel, sampler.sample(rng, WAYS, SHOTS, counts));
            int ns = e.support().size();
            int nq = e.queries().rows();
            n = ns + nq;
            int[] classes = e.support().classes();
            supportClass = new int[ns];
            for (int i = 0; i < ns; i++) {
                supportClass[i] = java.util.Arrays.binarySearch(classes, e.support().labels()[i]);
            }
            double[] x = new double[n * dim];
            FeatureNormalisation.centreAndNormalise(e.support().features().rawData(), 0, ns, dim, base.mean(), x, 0);
            FeatureNormalisation.centreAndNormalise(e.queries().rawData(), 0, nq, dim, base.mean(), x, ns);
            TaskSpan span = TaskSpan.of(x, n, dim, true);
            double[] b = span.basis().clone();
            Whitening.forwardSubstitution(base.cholesky(), dim, b, span.rank());
            episodes.add(e);
            rows.add(x);
            spans.add(span);
            solved.add(b);
            products.add(Whitening.innerProduct(b, dim, span.rank()));
            prepared.add(solver.prepare(e.support().features().rawData(), ns, supportClass, WAYS,
                    e.queries().rawData(), nq));
        }
    }

    private int task() {
        next = next + 1 == TASKS ? 0 : next + 1;
        return next;
    }

    @Benchmark
    public Prediction episode() {
        int t = task();
        return learner.solve(episodes.get(t).episode(), t);
    }

    @Benchmark
    public double[] gram() {
        return TaskSpan.gram(rows.get(task()), n, dim);
    }

    @Benchmark
    public TaskSpan span() {
        return TaskSpan.of(rows.get(task()), n, dim, true);
    }

    @Benchmark
    public double[] softKMeans() {
        TaskSpan s = spans.get(task());
        return SoftKMeans.run(s.coords(), n, s.rank(), supportClass, WAYS, config.tKm(), config.nKm());
    }

    @Benchmark
    public double[] triangularSolve() {
        TaskSpan s = spans.get(task());
        double[] b = s.basis().clone();
        Whitening.forwardSubstitution(base.cholesky(), dim, b, s.rank());
        return b;
    }

    @Benchmark
    public double[] innerProduct() {
        int t = task();
        return Whitening.innerProduct(solved.get(t), dim, spans.get(t).rank());
    }

    @Benchmark
    public SymmetricEigen eigen() {
        int t = task();
        int r = spans.get(t).rank();
        return SymmetricEigen.of(DMatrixRMaj.wrap(r, r, products.get(t)));
    }

    @Benchmark
    public Whitening.Rotation restrictedWhitening() {
        return Whitening.restricted(spans.get(task()), base);
    }

    @Benchmark
    public BavardageSolver.Result finish() {
        return BavardageSolver.finish(prepared.get(task()), config);
    }
}
