package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Step S with the authors' min(N, D) directions ({@link SpanBasis#AUTHORS}) against the numerical rank. */
class AuthorsSpanTest {

    /** n rows in d dimensions whose last {@code zeroCols} coordinates are 0 (rank min(n, d - zeroCols)). */
    private static double[] rankDeficient(SplittableRandom rnd, int n, int d, int zeroCols) {
        double[] x = WhiteningTest.gaussian(rnd, n * d);
        for (int i = 0; i < n; i++) {
            for (int j = d - zeroCols; j < d; j++) {
                x[i * d + j] = 0;
            }
        }
        return x;
    }

    private static double maxAbsDiff(DMatrixRMaj a, DMatrixRMaj b) {
        double m = 0;
        for (int i = 0; i < a.data.length; i++) {
            m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
        }
        return m;
    }

    private static double maxAbs(DMatrixRMaj a) {
        double m = 0;
        for (double v : a.data) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    @Test
    void authorsSpanKeepsMinNDOrthonormalDirectionsAndTheRows() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int[] nd : new int[][]{{8, 20}, {30, 12}}) {
            int n = nd[0];
            int d = nd[1];
            double[] x = rankDeficient(rnd, n, d, 5);
            TaskSpan rank = TaskSpan.of(x, n, d);
            TaskSpan s = TaskSpan.authors(x, n, d, true);
            assertEquals(Math.min(n, d - 5), rank.rank());
            int m = Math.min(n, d);
            assertEquals(m, s.rank());
            DMatrixRMaj u = DMatrixRMaj.wrap(d, m, s.basis());
            DMatrixRMaj utu = new DMatrixRMaj(m, m);
            CommonOps_DDRM.multTransA(u, u, utu);
            assertTrue(maxAbsDiff(CommonOps_DDRM.identity(m), utu) < 1e-12, "U^T U = I");
            DMatrixRMaj back = new DMatrixRMaj(n, d);
            CommonOps_DDRM.multTransB(DMatrixRMaj.wrap(n, m, s.coords()), u, back);
            assertArrayEquals(x, back.data, 1e-12, "X = C U^T");
            assertTrue(maxAbsDiff(WhiteningTest.gram(x, n, d), WhiteningTest.gram(s.coords(), n, m)) < 1e-12);
            // the first r directions are the numerical span's, unchanged
            for (int j = 0; j < d; j++) {
                for (int k = 0; k < rank.rank(); k++) {
                    assertEquals(rank.basis()[j * rank.rank() + k], s.basis()[j * m + k]);
                }
            }
        }
    }

    @Test
    void fullRankTasksAreUnchanged() {
        SplittableRandom rnd = new SplittableRandom(4);
        double[] x = WhiteningTest.gaussian(rnd, 10 * 25);
        TaskSpan rank = TaskSpan.of(x, 10, 25);
        TaskSpan s = TaskSpan.authors(x, 10, 25, true);
        assertArrayEquals(rank.coords(), s.coords(), 0.0);
        assertArrayEquals(rank.basis(), s.basis(), 0.0);
    }

    /**
     * With N &gt;= D the authors' basis is all of R^D: the clamped restricted whitening is the global whitening with
     * the same S_w, y_n = min(lambda^-1/2, s_max) (R^T x_n), compared through the Gram matrix (basis-free). The
     * numerical-rank span of a rank-deficient task clamps in another basis and differs; without a clamp all agree.
     */
    @Test
    void withNAtLeastDTheAuthorsClampIsTheGlobalOne() {
        SplittableRandom rnd = new SplittableRandom(5);
        int n = 30;
        int d = 12;
        double[] x = rankDeficient(rnd, n, d, 4);
        DMatrixRMaj sw = WhiteningTest.spd(rnd, d);
        BaseStatistics stats = BaseStatistics.code(new double[d], sw);
        SymmetricEigen e = SymmetricEigen.of(sw);
        double[] gains = new double[d];
        for (int k = 0; k < d; k++) {
            gains[k] = 1 / Math.sqrt(e.values()[k]);
        }
        // a clamp that holds some gains but not all
        double[] sorted = gains.clone();
        java.util.Arrays.sort(sorted);
        double sMax = sorted[d / 2];
        DMatrixRMaj rotated = new DMatrixRMaj(n, d);
        CommonOps_DDRM.mult(DMatrixRMaj.wrap(n, d, x), DMatrixRMaj.wrap(d, d, e.vectors()), rotated);
        for (double bound : new double[]{sMax, 1e12}) {
            double[] global = new double[n * d];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < d; k++) {
                    global[i * d + k] = Math.min(gains[k], bound) * rotated.get(i, k);
                }
            }
            DMatrixRMaj expected = WhiteningTest.gram(global, n, d);
            Whitening.Result authors = Whitening.restricted(TaskSpan.authors(x, n, d, true), stats, bound);
            Whitening.Result rank = Whitening.restricted(TaskSpan.of(x, n, d), stats, bound);
            double scale = maxAbs(expected);
            assertTrue(maxAbsDiff(expected, WhiteningTest.gram(authors.data(), n, authors.dim())) < 1e-9 * scale,
                    "authors = global whitening, s_max " + bound);
            double rankDiff = maxAbsDiff(expected, WhiteningTest.gram(rank.data(), n, rank.dim()));
            if (bound == sMax) {
                assertTrue(rankDiff > 1e-3 * scale, "the rank span clamps in another basis: " + rankDiff / scale);
            } else {
                assertTrue(rankDiff < 1e-9 * scale, "without a clamp the bases agree");
            }
        }
    }

    @Test
    void methodOptionRunsOnRankDeficientFeatures() {
        // features with 6 constant (zero) coordinates, like digits' corner pixels; D = 20 < N = 5 * (1 + 5) + 25
        SplittableRandom rnd = new SplittableRandom(6);
        int d = 20;
        int baseRows = 200;
        double[] means = WhiteningTest.gaussian(rnd, 10 * d);
        float[] base = new float[baseRows * d];
        int[] baseLabels = new int[baseRows];
        for (int i = 0; i < baseRows; i++) {
            baseLabels[i] = i % 5;
            double[] g = WhiteningTest.gaussian(rnd, d);
            for (int j = 0; j < d - 6; j++) {
                base[i * d + j] = (float) (3 * means[baseLabels[i] * d + j] + g[j]);
            }
        }
        LabeledData baseData = new LabeledData(FeatureMatrix.wrap(baseRows, d, base), baseLabels);
        Background bg = new Background(baseData, ClassTable.numbered(100), "span", 1, Optional.empty());
        BavardageMethod m = new BavardageMethod();
        Map<String, String> common = Map.of("preset", "official", "task_span", "authors");
        Learner authors = m.learner(m.params(common), bg);
        Learner authorsNoClamp = m.learner(m.params(Map.of("preset", "official", "task_span", "authors",
                "s_max", "1e12")), bg);
        Learner rankNoClamp = m.learner(m.params(Map.of("preset", "official", "s_max", "1e12")), bg);
        UniformRandomProvider r = RandomStreams.create(2);
        int agree = 0;
        int total = 0;
        for (int e = 0; e < 6; e++) {
            int ns = 5 * 5;
            int nq = 25;
            float[] sx = new float[ns * d];
            int[] sl = new int[ns];
            float[] qx = new float[nq * d];
            for (int i = 0; i < ns + nq; i++) {
                int c = 5 + i % 5;
                double[] g = WhiteningTest.gaussian(rnd, d);
                float[] dst = i < ns ? sx : qx;
                int row = i < ns ? i : i - ns;
                for (int j = 0; j < d - 6; j++) {
                    dst[row * d + j] = (float) (3 * means[c * d + j] + g[j] + 0.01 * r.nextDouble());
                }
                if (i < ns) {
                    sl[i] = c;
                }
            }
            LabeledEpisode ep = new LabeledEpisode(new LabeledData(FeatureMatrix.wrap(ns, d, sx), sl),
                    FeatureMatrix.wrap(nq, d, qx), new int[nq]);
            Prediction p = authors.solve(ep.episode(), e);
            for (double v : p.rawProbabilities()) {
                assertTrue(Double.isFinite(v));
            }
            Prediction a = authorsNoClamp.solve(ep.episode(), e);
            Prediction b = rankNoClamp.solve(ep.episode(), e);
            assertArrayEquals(b.rawProbabilities(), a.rawProbabilities(), 1e-6, "no clamp: same method");
            for (int i = 0; i < nq; i++) {
                agree += a.labels()[i] == b.labels()[i] ? 1 : 0;
                total++;
            }
        }
        assertEquals(total, agree);
    }
}
