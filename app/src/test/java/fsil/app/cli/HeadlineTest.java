package fsil.app.cli;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HeadlineTest {

    private static Table row(double value, double ci, int n) {
        return Table.create("s", DoubleColumn.create("value", value), DoubleColumn.create("ci95", ci),
                IntColumn.create("n", new int[]{n}));
    }

    @Test
    void accuracyShowsItsIntervalWhenThereAreSeveralUnits() {
        assertEquals("71.35 +- 1.20 %", Headline.plain("final_acc", row(0.7135, 0.012, 5).row(0)));
    }

    @Test
    void oneUnitHasNoIntervalRatherThanAZeroOne() {
        assertEquals("71.35 %", Headline.plain("final_acc", row(0.7135, 0.0, 1).row(0)));
    }

    @Test
    void calibrationTimesAndSizesInReadableUnits() {
        assertEquals("0.0581", Headline.plain("ece", row(0.058131, 0.0, 1).row(0)));
        assertEquals("46.4 us", Headline.plain("fit_s", row(4.64e-05, 0.0, 1).row(0)));
        assertEquals("12.30 ms", Headline.plain("predict_s", row(0.0123, 0.0, 1).row(0)));
        assertEquals("1.3 KB", Headline.plain("memory_bytes", row(1340, 0.0, 1).row(0)));
        assertEquals("2.5 MB", Headline.plain("memory_bytes", row(2.5e6, 0.0, 1).row(0)));
    }
}
