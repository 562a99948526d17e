package fsil.methods.bavardage;

import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.core.random.EpisodeSampler;

/**
 * A few-shot episode whose query labels are known: the unit of the {@code auto} preset's tuning
 * ({@link AutoTuning}), of the {@code bavardage-episodes} benchmark and of the module's tests.
 *
 * @param support     labelled support set (global class ids)
 * @param queries     query features
 * @param queryLabels true class id of every query row
 */
public record LabeledEpisode(LabeledData support, FeatureMatrix queries, int[] queryLabels) {

    public LabeledEpisode {
        if (queries.rows() != queryLabels.length) {
            throw new InvalidDataException("an episode has " + queries.rows() + " queries but " + queryLabels.length
                    + " query labels");
        }
        if (queries.cols() != support.dimension()) {
            throw new InvalidDataException("queries have dimension " + queries.cols() + " but the support set has "
                    + support.dimension());
        }
    }

    /** The episode of {@code data}'s rows that core's {@link EpisodeSampler} drew (row codes = row indices). */
    public static LabeledEpisode of(LabeledData data, EpisodeSampler.Episode drawn) {
        LabeledData q = data.select(drawn.query());
        return new LabeledEpisode(data.select(drawn.support()), q.features(), q.labels());
    }

    /** The unlabelled transductive episode a method sees. */
    public Episode episode() {
        int ways = support.classes().length;
        return new Episode(support, queries, ways, support.size() / Math.max(ways, 1), true);
    }

    /** Fraction of queries whose predicted label equals the true one (1 for an empty query set). */
    public double accuracy(int[] predicted) {
        if (predicted.length != queryLabels.length) {
            throw new IllegalArgumentException(predicted.length + " predictions for " + queryLabels.length
                    + " queries");
        }
        if (predicted.length == 0) {
            return 1;
        }
        int ok = 0;
        for (int i = 0; i < predicted.length; i++) {
            ok += predicted[i] == queryLabels[i] ? 1 : 0;
        }
        return ok / (double) predicted.length;
    }
}
