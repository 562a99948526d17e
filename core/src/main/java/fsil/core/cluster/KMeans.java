package fsil.core.cluster;

import fsil.core.linalg.Distances;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.Arrays;

/**
 * Euclidean k-means (Lloyd) with k-means++ seeding (Arthur and Vassilvitskii 2007) and restarts, seeded and
 * deterministic: restart r uses the stream {@code RandomStreams.child(seed, r)} and the run with the lowest inertia
 * wins (the first one on exact ties), as scikit-learn's {@code KMeans(n_init=...)}.
 *
 * <p>Details, chosen to match scikit-learn 0.23 where GP-Tree's code (https://github.com/IdanAchituve/GP-Tree) relies
 * on it for its class splits and inducing inputs:
 * <ul>
 *   <li>greedy k-means++: each new centre is the best of {@code 2 + floor(ln k)} candidates drawn with probability
 *   proportional to D(x)^2 (the candidate that lowers the potential most wins);</li>
 *   <li>Lloyd iterations until no assignment changes or the squared centre shift is at most {@code tolerance} times
 *   the mean per-feature variance of the data, at most {@code maxIterations};</li>
 *   <li>a point is assigned to its nearest centre, the lower index on exact ties;</li>
 *   <li>an empty cluster is re-seeded with the point farthest from its current centre (so with n &gt;= k every
 *   cluster of the result is non-empty, also when points coincide).</li>
 * </ul>
 * Points are rows of a row-major {@code double[]} (n x d).
 */
public final class KMeans {
    private final int k;
    private final int restarts;
    private final int maxIterations;
    private final double tolerance;

    /**
     * @param k             number of clusters (&gt;= 1)
     * @param restarts      independent k-means++ initialisations (&gt;= 1)
     * @param maxIterations Lloyd iterations per restart (&gt;= 1)
     * @param tolerance     relative convergence tolerance on the squared centre shift (&gt;= 0)
     */
    public KMeans(int k, int restarts, int maxIterations, double tolerance) {
        if (k < 1 || restarts < 1 || maxIterations < 1 || !(tolerance >= 0)) {
            throw new IllegalArgumentException("k-means needs k >= 1, restarts >= 1, maxIterations >= 1, tolerance >= 0; got k="
                    + k + ", restarts=" + restarts + ", maxIterations=" + maxIterations + ", tolerance=" + tolerance);
        }
        this.k = k;
        this.restarts = restarts;
        this.maxIterations = maxIterations;
        this.tolerance = tolerance;
    }

    /** scikit-learn's defaults for the given k and restarts: 300 iterations, tolerance 1e-4. */
    public static KMeans of(int k, int restarts) {
        return new KMeans(k, restarts, 300, 1e-4);
    }

    /**
     * The clustering of the best restart.
     *
     * @param centres  k x d, row-major
     * @param labels   cluster index per point
     * @param inertia  sum of squared distances of the points to their centres
     * @param sizes    points per cluster
     */
    public record Result(double[] centres, int[] labels, double inertia, int[] sizes) {
        /** Number of clusters with at least one point. */
        public int nonEmpty() {
            int c = 0;
            for (int s : sizes) {
                c += s > 0 ? 1 : 0;
            }
            return c;
        }
    }

    /**
     * @param x    n x d points, row-major (not modified)
     * @param n    number of points, at least k
     * @param d    dimension
     * @param seed seed of the restarts' streams
     */
    public Result fit(double[] x, int n, int d, long seed) {
        if (n < k) {
            throw new IllegalArgumentException("k-means with k=" + k + " needs at least " + k + " points, got " + n);
        }
        if (x.length != (long) n * d) {
            throw new IllegalArgumentException("points array has length " + x.length + ", expected " + n + " x " + d);
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("k-means points must be finite, got " + v);
            }
        }
        double tol = tolerance * meanVariance(x, n, d);
        Result best = null;
        for (int r = 0; r < restarts; r++) {
            UniformRandomProvider rng = RandomStreams.child(seed, r);
            double[] c = seedPlusPlus(x, n, d, rng);
            Result res = lloyd(x, n, d, c, tol);
            if (best == null || res.inertia() < best.inertia()) {
                best = res;
            }
        }
        return best;
    }

    private double[] seedPlusPlus(double[] x, int n, int d, UniformRandomProvider rng) {
        double[] c = new double[k * d];
        int first = rng.nextInt(n);
        System.arraycopy(x, first * d, c, 0, d);
        double[] closest = new double[n];
        double potential = 0;
        for (int i = 0; i < n; i++) {
            closest[i] = Distances.squared(x, i * d, c, 0, d);
            potential += closest[i];
        }
        int trials = 2 + (int) Math.floor(Math.log(k));
        double[] candDist = new double[n];
        double[] bestDist = new double[n];
        for (int j = 1; j < k; j++) {
            int bestCand = -1;
            double bestPot = Double.POSITIVE_INFINITY;
            for (int t = 0; t < trials; t++) {
                int cand = potential > 0 ? sampleProportional(closest, potential, rng) : rng.nextInt(n);
                double pot = 0;
                for (int i = 0; i < n; i++) {
                    candDist[i] = Math.min(closest[i], Distances.squared(x, i * d, x, cand * d, d));
                    pot += candDist[i];
                }
                if (pot < bestPot) {
                    bestPot = pot;
                    bestCand = cand;
                    System.arraycopy(candDist, 0, bestDist, 0, n);
                }
            }
            System.arraycopy(x, bestCand * d, c, j * d, d);
            System.arraycopy(bestDist, 0, closest, 0, n);
            potential = bestPot;
        }
        return c;
    }

    private static int sampleProportional(double[] w, double total, UniformRandomProvider rng) {
        double u = rng.nextDouble() * total;
        double acc = 0;
        int last = -1;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0) {
                acc += w[i];
                last = i;
                if (u < acc) {
                    return i;
                }
            }
        }
        return last;
    }

    private Result lloyd(double[] x, int n, int d, double[] c, double tol) {
        int[] labels = new int[n];
        Arrays.fill(labels, -1);
        int[] sizes = new int[k];
        double[] sums = new double[k * d];
        double[] dist = new double[n];
        for (int it = 0; it < maxIterations; it++) {
            boolean changed = assign(x, n, d, c, labels, dist);
            Arrays.fill(sizes, 0);
            Arrays.fill(sums, 0);
            for (int i = 0; i < n; i++) {
                int l = labels[i];
                sizes[l]++;
                for (int j = 0; j < d; j++) {
                    sums[l * d + j] += x[i * d + j];
                }
            }
            relocateEmpty(x, n, d, c, labels, dist, sizes, sums);
            double shift = 0;
            for (int l = 0; l < k; l++) {
                for (int j = 0; j < d; j++) {
                    double v = sums[l * d + j] / sizes[l];
                    double delta = v - c[l * d + j];
                    shift += delta * delta;
                    c[l * d + j] = v;
                }
            }
            if (!changed || shift <= tol) {
                break;
            }
        }
        // final assignment to the final centres, so labels, inertia and centres agree; a cluster left empty (only
        // possible when points coincide) gets the farthest point as its centre
        assign(x, n, d, c, labels, dist);
        Arrays.fill(sizes, 0);
        for (int i = 0; i < n; i++) {
            sizes[labels[i]]++;
        }
        for (int l = 0; l < k; l++) {
            if (sizes[l] == 0) {
                int[] before = labels.clone();
                relocateEmpty(x, n, d, c, labels, dist, sizes, sums);
                for (int i = 0; i < n; i++) {
                    if (labels[i] != before[i]) {
                        System.arraycopy(x, i * d, c, labels[i] * d, d);
                    }
                }
                break;
            }
        }
        double inertia = 0;
        for (int i = 0; i < n; i++) {
            inertia += dist[i];
        }
        return new Result(c, labels, inertia, sizes);
    }

    /** Moves, for each empty cluster, the point farthest from its centre into it (sizes and sums updated). */
    private void relocateEmpty(double[] x, int n, int d, double[] c, int[] labels, double[] dist, int[] sizes,
                               double[] sums) {
        for (int l = 0; l < k; l++) {
            if (sizes[l] > 0) {
                continue;
            }
            int far = -1;
            double farDist = -1;
            for (int i = 0; i < n; i++) {
                if (sizes[labels[i]] > 1 && dist[i] > farDist) {
                    farDist = dist[i];
                    far = i;
                }
            }
            int from = labels[far];
            sizes[from]--;
            sizes[l] = 1;
            for (int j = 0; j < d; j++) {
                sums[from * d + j] -= x[far * d + j];
                sums[l * d + j] = x[far * d + j];
            }
            labels[far] = l;
            dist[far] = 0;
        }
    }

    private boolean assign(double[] x, int n, int d, double[] c, int[] labels, double[] dist) {
        boolean changed = false;
        for (int i = 0; i < n; i++) {
            int best = 0;
            double bestD = Distances.squared(x, i * d, c, 0, d);
            for (int l = 1; l < k; l++) {
                double v = Distances.squared(x, i * d, c, l * d, d);
                if (v < bestD) {
                    bestD = v;
                    best = l;
                }
            }
            if (labels[i] != best) {
                changed = true;
                labels[i] = best;
            }
            dist[i] = bestD;
        }
        return changed;
    }

    private static double meanVariance(double[] x, int n, int d) {
        double total = 0;
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += x[i * d + j];
            }
            mean /= n;
            double v = 0;
            for (int i = 0; i < n; i++) {
                double t = x[i * d + j] - mean;
                v += t * t;
            }
            total += v / n;
        }
        return d == 0 ? 0 : total / d;
    }
}
