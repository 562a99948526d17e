package fsil.methods.lsgp;

import fsil.api.LabeledData;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Meta-training and meta-validation episodes from labelled base classes, drawn by core's
 * {@link fsil.core.random.EpisodeSampler} exactly as the few-shot protocol draws its episodes (classes with fewer
 * than shots + 1 samples are left out), with up to {@code queries} queries per class. Rows are laid out as the
 * objectives want them: every support row first (class by class), then the queries; labels are 0..ways-1 in the
 * order of the episode's sorted classes.
 */
final class EpisodeSampler {
    /** One episode: row indices into the data (support then queries) and labels 0..ways-1. */
    record Episode(int[] rows, int[] labels, int supportSize) {
        int[] supportLabels() {
            return Arrays.copyOfRange(labels, 0, supportSize);
        }

        int[] queryLabels() {
            return Arrays.copyOfRange(labels, supportSize, labels.length);
        }
    }

    private final fsil.core.random.EpisodeSampler sampler;

    /** Episodes over those of {@code classes} that have at least {@code shots} + 1 samples in {@code data}. */
    EpisodeSampler(LabeledData data, int[] classes, int shots) {
        List<Integer> usable = new ArrayList<>();
        List<int[]> rows = new ArrayList<>();
        int[] labels = data.labels();
        for (int c : classes) {
            int[] r = java.util.stream.IntStream.range(0, labels.length).filter(i -> labels[i] == c).toArray();
            if (r.length >= shots + 1) {
                usable.add(c);
                rows.add(r);
            }
        }
        this.sampler = new fsil.core.random.EpisodeSampler(usable.stream().mapToInt(Integer::intValue).toArray(),
                rows.toArray(new int[0][]));
    }

    int classes() {
        return sampler.classes();
    }

    int maxRows(int ways, int shots, int queries) {
        return ways * (shots + queries);
    }

    Episode sample(UniformRandomProvider rng, int ways, int shots, int queries) {
        fsil.core.random.EpisodeSampler.Episode e = sampler.sample(rng, ways, shots,
                fsil.core.random.EpisodeSampler.Queries.upTo(queries));
        int ns = e.support().length;
        int[] rows = new int[ns + e.query().length];
        int[] labels = new int[rows.length];
        System.arraycopy(e.support(), 0, rows, 0, ns);
        System.arraycopy(e.supportClass(), 0, labels, 0, ns);
        System.arraycopy(e.query(), 0, rows, ns, e.query().length);
        System.arraycopy(e.queryClass(), 0, labels, ns, e.query().length);
        return new Episode(rows, labels, ns);
    }
}
