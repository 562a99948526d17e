package fsil.core.random;

import fsil.api.LabeledData;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.Arrays;

/**
 * Few-shot episodes from a pool of classes: the one sampler of the few-shot protocol, meta-training and tuning.
 * An episode draws its K classes as the first K of a uniform permutation of the pool (then sorted), asks a
 * {@link Queries} rule for each class's query count, and per class takes a uniformly random ordered subset of its
 * rows (a partial Fisher-Yates shuffle): the first L are the support, the next ones the queries, disjoint. The
 * queries are then shuffled. Rows are any integer codes the caller gives (e.g. indices into a data set).
 */
public final class EpisodeSampler {
    private final int[] classes;
    private final int[][] rows;

    /** How many queries each chosen class gets, given the classes' numbers of rows. */
    @FunctionalInterface
    public interface Queries {
        /** Counts for the chosen classes (rows per class given), or null when none can be drawn. */
        int[] counts(int[] classSizes, int shots, UniformRandomProvider rng);

        /** Q/K per class. */
        static Queries balanced(int total) {
            return (sizes, shots, rng) -> QueryCounts.balanced(sizes.length, total);
        }

        /** Dirichlet(alpha) counts summing to Q, redrawn until every class has the rows for shots + count. */
        static Queries dirichlet(int total, double alpha) {
            return (sizes, shots, rng) -> QueryCounts.dirichlet(rng, sizes.length, total, alpha, counts -> {
                for (int k = 0; k < sizes.length; k++) {
                    if (shots + counts[k] > sizes[k]) {
                        return false;
                    }
                }
                return true;
            });
        }

        /** {@code perClass} queries for each class, fewer when a class has fewer rows beyond its shots. */
        static Queries upTo(int perClass) {
            return (sizes, shots, rng) -> {
                int[] c = new int[sizes.length];
                for (int k = 0; k < c.length; k++) {
                    c[k] = Math.max(0, Math.min(perClass, sizes[k] - shots));
                }
                return c;
            };
        }
    }

    /**
     * One episode.
     *
     * @param classes       the K chosen class ids, sorted
     * @param support       K x L row codes, class by class in the order of {@code classes}
     * @param supportClass  index into {@code classes} of each support row
     * @param query         the query row codes, shuffled
     * @param queryClass    index into {@code classes} of each query row
     */
    public record Episode(int[] classes, int[] support, int[] supportClass, int[] query, int[] queryClass) {
    }

    /**
     * @param classes the pool's class ids
     * @param rows    the row codes of each class of the pool (not modified)
     */
    public EpisodeSampler(int[] classes, int[][] rows) {
        if (classes.length != rows.length) {
            throw new IllegalArgumentException(classes.length + " classes but " + rows.length + " row lists");
        }
        this.classes = classes.clone();
        this.rows = rows.clone();
    }

    /** The pool of every class of {@code data}, in ascending id order, whose row codes are row indices of data. */
    public static EpisodeSampler of(LabeledData data) {
        int[] ids = data.classes();
        int[] labels = data.labels();
        int[] counts = new int[ids.length];
        for (int y : labels) {
            counts[Arrays.binarySearch(ids, y)]++;
        }
        int[][] rows = new int[ids.length][];
        for (int k = 0; k < ids.length; k++) {
            rows[k] = new int[counts[k]];
            counts[k] = 0;
        }
        for (int i = 0; i < labels.length; i++) {
            int k = Arrays.binarySearch(ids, labels[i]);
            rows[k][counts[k]++] = i;
        }
        return new EpisodeSampler(ids, rows);
    }

    public int classes() {
        return classes.length;
    }

    /**
     * Draws an episode of {@code ways} classes with {@code shots} support rows each. Every chosen class must have
     * at least shots + its query count rows (the rule decides the counts; callers check the pool beforehand).
     *
     * @return the episode, or null when the rule returns null
     */
    public Episode sample(UniformRandomProvider rng, int ways, int shots, Queries queries) {
        if (ways > classes.length) {
            throw new IllegalArgumentException(ways + " ways but the pool has " + classes.length + " classes");
        }
        int[] order = RandomStreams.permutation(classes.length, rng);
        int[] chosen = new int[ways];
        for (int k = 0; k < ways; k++) {
            chosen[k] = order[k];
        }
        // sort the chosen classes by id, keeping each one's row list
        Integer[] byId = new Integer[ways];
        for (int k = 0; k < ways; k++) {
            byId[k] = chosen[k];
        }
        Arrays.sort(byId, (a, b) -> Integer.compare(classes[a], classes[b]));
        int[] ids = new int[ways];
        int[] sizes = new int[ways];
        for (int k = 0; k < ways; k++) {
            ids[k] = classes[byId[k]];
            sizes[k] = rows[byId[k]].length;
        }
        int[] counts = queries.counts(sizes, shots, rng);
        if (counts == null) {
            return null;
        }
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        int[] support = new int[ways * shots];
        int[] supportClass = new int[ways * shots];
        int[] query = new int[total];
        int[] queryClass = new int[total];
        int qAt = 0;
        for (int k = 0; k < ways; k++) {
            int[] codes = rows[byId[k]].clone();
            int take = shots + counts[k];
            partialShuffle(codes, take, rng);
            System.arraycopy(codes, 0, support, k * shots, shots);
            Arrays.fill(supportClass, k * shots, (k + 1) * shots, k);
            System.arraycopy(codes, shots, query, qAt, counts[k]);
            Arrays.fill(queryClass, qAt, qAt + counts[k], k);
            qAt += counts[k];
        }
        shuffleTogether(query, queryClass, rng);
        return new Episode(ids, support, supportClass, query, queryClass);
    }

    /** Puts a uniformly drawn ordered sample of size {@code m} in a[0..m) (the first m steps of Fisher-Yates). */
    public static void partialShuffle(int[] a, int m, UniformRandomProvider rng) {
        for (int i = 0; i < m; i++) {
            int j = i + rng.nextInt(a.length - i);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** {@link RandomStreams#shuffle} of {@code a}, applying the same swaps to {@code b}. */
    private static void shuffleTogether(int[] a, int[] b, UniformRandomProvider rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
    }
}
