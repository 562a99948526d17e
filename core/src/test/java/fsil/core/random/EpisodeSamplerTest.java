package fsil.core.random;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class EpisodeSamplerTest {

    /** A pool built from labelled rows: classes in ascending id order, every drawn row of the class it is drawn for. */
    @Test
    void poolOfLabelledRowsDrawsRowsOfTheirOwnClass() {
        int[] labels = {7, 3, 7, 9, 3, 3, 9, 7, 9, 3, 7, 9};
        LabeledData data = new LabeledData(FeatureMatrix.wrap(labels.length, 1, new float[labels.length]), labels);
        EpisodeSampler s = EpisodeSampler.of(data);
        assertEquals(3, s.classes());
        for (int seed = 0; seed < 50; seed++) {
            EpisodeSampler.Episode e = s.sample(RandomStreams.create(seed), 2, 2, EpisodeSampler.Queries.upTo(2));
            assertEquals(2, e.classes().length);
            assertEquals(4, e.query().length, "4 rows per class: 2 shots + 2 queries");
            for (int i = 0; i < e.support().length; i++) {
                assertEquals(e.classes()[e.supportClass()[i]], labels[e.support()[i]]);
            }
            for (int i = 0; i < e.query().length; i++) {
                assertEquals(e.classes()[e.queryClass()[i]], labels[e.query()[i]]);
            }
            int[] rows = new int[8];
            System.arraycopy(e.support(), 0, rows, 0, 4);
            System.arraycopy(e.query(), 0, rows, 4, 4);
            assertEquals(8, Arrays.stream(rows).distinct().count(), "support and queries disjoint");
        }
        EpisodeSampler.Episode all = s.sample(RandomStreams.create(1), 3, 4, EpisodeSampler.Queries.upTo(0));
        assertArrayEquals(new int[]{3, 7, 9}, all.classes());
        int[] support = all.support().clone();
        Arrays.sort(support);
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, support, "every row once");
    }
}
