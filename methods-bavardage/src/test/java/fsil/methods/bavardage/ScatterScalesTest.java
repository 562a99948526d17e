package fsil.methods.bavardage;

import fsil.api.LabeledData;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scale equivariance behind the auto preset's scale-free grid, and the two reference scales. */
class ScatterScalesTest {
    private static final SyntheticEpisodes DATA = SyntheticEpisodes.generate(5, 24, 12, 30, 10, 40, 1.0, 4,
            1.0);

    private static DMatrixRMaj codeScatter(BaseStatistics stats) {
        int d = stats.dimension();
        DMatrixRMaj l = DMatrixRMaj.wrap(d, d, stats.cholesky());
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(l, l, s);
        return s;
    }

    private static DMatrixRMaj scaled(DMatrixRMaj s, double a) {
        DMatrixRMaj out = s.copy();
        CommonOps_DDRM.scale(a, out);
        return out;
    }

    @Test
    void scalingTheScatterByAIsUndoneByTvbTimesAAndSmaxOverSqrtA() {
        // S_w -> a S_w divides the gains by sqrt(a): (T_vb a, s_max / sqrt(a)) gives the same responsibilities.
        BaseStatistics fromBase = BaseStatistics.fromBase(DATA.base(), Preprocessing.CODE);
        DMatrixRMaj s = codeScatter(fromBase);
        LabeledEpisode ep = DATA.episode(RandomStreams.create(3), 5, 5, EpisodeSampler.Queries.dirichlet(40, 2.0));
        int[] classes = ep.support().classes();
        int[] sc = BavardageSession.classIndices(ep.support().labels(), classes);
        double a = 37.5;
        for (Preprocessing kind : Preprocessing.values()) {
            BavardageConfig cfg = new BavardageConfig(Variant.BAVARDAGE, kind, 10, 5, 30, 2.0, 5, false, 2, 10, 10,
                    false, false);
            BaseStatistics one = kind == Preprocessing.CODE ? BaseStatistics.code(fromBase.mean(), s)
                    : BaseStatistics.paper(fromBase.mean(), s);
            BaseStatistics many = kind == Preprocessing.CODE ? BaseStatistics.code(fromBase.mean(), scaled(s, a))
                    : BaseStatistics.paper(fromBase.mean(), scaled(s, a));
            double[] r1 = new BavardageSolver(cfg, one).solve(ep.support().features().rawData(), sc.length, sc, 5,
                    ep.queries().rawData(), ep.queries().rows()).responsibilities();
            BavardageConfig equivalent = cfg.withVb(cfg.tVb() * a, cfg.sMax() / Math.sqrt(a));
            double[] ra = new BavardageSolver(equivalent, many).solve(ep.support().features().rawData(), sc.length,
                    sc, 5, ep.queries().rawData(), ep.queries().rows()).responsibilities();
            assertArrayEquals(r1, ra, 1e-9, kind.id());
            // and the clamp matters here, so the check is not vacuous
            double[] unclamped = new BavardageSolver(cfg.withVb(30, 1e12), one).solve(
                    ep.support().features().rawData(), sc.length, sc, 5, ep.queries().rawData(),
                    ep.queries().rows()).responsibilities();
            assertFalse(java.util.Arrays.equals(r1, unclamped));
        }
    }

    @Test
    void scalesAreEquivariantToTheScaleOfTheScatter() {
        BaseStatistics fromBase = BaseStatistics.fromBase(DATA.base(), Preprocessing.CODE);
        DMatrixRMaj s = codeScatter(fromBase);
        double a = 250;
        for (Preprocessing kind : Preprocessing.values()) {
            BaseStatistics one = kind == Preprocessing.CODE ? BaseStatistics.code(fromBase.mean(), s)
                    : BaseStatistics.paper(fromBase.mean(), s);
            BaseStatistics many = kind == Preprocessing.CODE ? BaseStatistics.code(fromBase.mean(), scaled(s, a))
                    : BaseStatistics.paper(fromBase.mean(), scaled(s, a));
            ScatterScales s1 = ScatterScales.of(DATA.base(), one, Variant.BAVARDAGE);
            ScatterScales sa = ScatterScales.of(DATA.base(), many, Variant.BAVARDAGE);
            assertEquals(a * s1.precision(), sa.precision(), 1e-10 * sa.precision(), kind.id());
            assertEquals(s1.gain() / Math.sqrt(a), sa.gain(), 1e-12 * s1.gain(), kind.id());
            assertEquals(s1.tVb(8) * a, sa.tVb(8), 1e-9 * sa.tVb(8));
            // the unwhitened reference (vb-no-plda) does not depend on S_w
            assertEquals(ScatterScales.of(DATA.base(), one, Variant.VB_NO_PLDA).precision(),
                    ScatterScales.of(DATA.base(), many, Variant.VB_NO_PLDA).precision(), 0.0);
        }
    }

    @Test
    void referencesAgreeWithADenseComputation() {
        LabeledData base = DATA.base();
        int n = base.size();
        int d = base.dimension();
        BaseStatistics stats = BaseStatistics.fromBase(base, Preprocessing.CODE);
        DMatrixRMaj s = codeScatter(stats);
        double[] x = new double[n * d];
        FeatureNormalisation.centreAndNormalise(base.features().rawData(), 0, n, d, stats.mean(), x, 0);
        // class-centred rows, then mean ||S^-1/2 r||^2 = mean r^T S^-1 r by a dense solve
        int[][] groups = WithinClassScatter.groups(base.labels());
        double quad = 0;
        double plain = 0;
        DMatrixRMaj rhs = new DMatrixRMaj(d, 1);
        DMatrixRMaj sol = new DMatrixRMaj(d, 1);
        for (int[] rows : groups) {
            double[] m = new double[d];
            for (int r : rows) {
                for (int j = 0; j < d; j++) {
                    m[j] += x[r * d + j] / rows.length;
                }
            }
            for (int r : rows) {
                for (int j = 0; j < d; j++) {
                    rhs.data[j] = x[r * d + j] - m[j];
                    plain += rhs.data[j] * rhs.data[j];
                }
                assertTrue(CommonOps_DDRM.solve(s, rhs, sol));
                quad += CommonOps_DDRM.dot(rhs, sol);
            }
        }
        ScatterScales sc = ScatterScales.of(base, stats, Variant.BAVARDAGE);
        assertEquals(n * (double) d / quad, sc.precision(), 1e-8 * sc.precision());
        assertEquals(1 / Math.sqrt(CommonOps_DDRM.trace(s) / d), sc.gain(), 1e-12 * sc.gain());
        assertEquals(n * (double) d / plain, ScatterScales.of(base, stats, Variant.VB_NO_PLDA).precision(),
                1e-10 * n * d / plain);
        // the paper's pooled covariance whitens the base rows to unit variance in all D directions
        BaseStatistics paper = BaseStatistics.fromBase(base, Preprocessing.PAPER);
        assertEquals(1.0, ScatterScales.of(base, paper, Variant.BAVARDAGE).precision(), 1e-9);
    }

    @Test
    void symmetricEigenFallsBackToAnSvdWhenTheQrAlgorithmGivesUp() {
        // rank-1 Gram matrices of +-1 entries perturbed by an ulp (a task in dimension 1 after L2 normalisation):
        // EJML's symmetric QR algorithm hits its iteration limit on some of them
        int n = 84;
        int qrFailures = 0;
        for (int t = 0; t < 30; t++) {
            double[] v = HouseholderQlTest.signsUpToAnUlp(new Random(t), n);
            DMatrixRMaj g = new DMatrixRMaj(n, n);
            CommonOps_DDRM.multOuter(DMatrixRMaj.wrap(n, 1, v), g);
            if (!DecompositionFactory_DDRM.eig(n, true, true).decompose(g.copy())) {
                qrFailures++;
            }
            SymmetricEigen e = SymmetricEigen.of(g);
            assertEquals(CommonOps_DDRM.dot(DMatrixRMaj.wrap(n, 1, v), DMatrixRMaj.wrap(n, 1, v)), e.values()[0],
                    1e-9);
            for (int i = 1; i < n; i++) {
                assertEquals(0, e.values()[i], 1e-9);
            }
            // A V = V diag(values), V orthonormal
            DMatrixRMaj vm = DMatrixRMaj.wrap(n, n, e.vectors());
            DMatrixRMaj av = new DMatrixRMaj(n, n);
            CommonOps_DDRM.mult(g, vm, av);
            DMatrixRMaj vl = vm.copy();
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < n; c++) {
                    vl.set(i, c, vl.get(i, c) * e.values()[c]);
                }
            }
            assertArrayEquals(vl.data, av.data, 1e-9);
            DMatrixRMaj vtv = new DMatrixRMaj(n, n);
            CommonOps_DDRM.multTransA(vm, vm, vtv);
            assertArrayEquals(CommonOps_DDRM.identity(n).data, vtv.data, 1e-9);
        }
        assertTrue(qrFailures > 0, "the fallback path must be exercised");
    }
}
