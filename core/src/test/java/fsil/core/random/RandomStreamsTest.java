package fsil.core.random;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class RandomStreamsTest {
    @Test
    void sameSeedSameStreamDifferentIndexDifferentStream() {
        assertEquals(RandomStreams.create(5).nextLong(), RandomStreams.create(5).nextLong());
        assertNotEquals(RandomStreams.child(5, 0).nextLong(), RandomStreams.child(5, 1).nextLong());
        Set<Long> seeds = new HashSet<>();
        for (int parent = 0; parent < 100; parent++) {
            for (int i = 0; i < 100; i++) {
                seeds.add(RandomStreams.derive(parent, i));
            }
        }
        assertEquals(10_000, seeds.size(), "derived seeds must not collide on a small grid");
        assertNotEquals(RandomStreams.derive(1, "episodes"), RandomStreams.derive(1, "init"));
    }

    @Test
    void permutationIsAPermutation() {
        int[] p = RandomStreams.permutation(1000, RandomStreams.create(3));
        boolean[] seen = new boolean[1000];
        for (int v : p) {
            seen[v] = true;
        }
        for (boolean b : seen) {
            assertEquals(true, b);
        }
    }
}
