package fsil.eval.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void pluginFromServicesFileAppearsWithoutChangingEval() {
        Result r = run("methods", "--json");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"id\" : \"plugin-probe\""), r.out());
        assertTrue(r.out().contains("\"knob\""), "its parameters are listed");
        assertTrue(r.out().contains("\"id\" : \"ncm\""), "built-in baselines are listed too");
    }

    @Test
    void userErrorsAreOneLineWithoutStackTrace() {
        Result r = run("run", "--methods", "ncm[tempreature=1]", "--datasets", "digits", "--protocol", "fewshot");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: method 'ncm' has no parameter 'tempreature'"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        Result p = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshoot");
        assertEquals(2, p.code());
        assertTrue(p.err().contains("Known protocols: fewshot, cil, fscil, ncmf, gp-classes"), p.err());
    }

    @Test
    void datasetListsKeepParameterisedNamesTogether() {
        assertEquals(java.util.List.of("synthetic:classes=40,dim=64", "digits", "dir:/a/b"),
                RunCommand.splitDatasets("synthetic:classes=40,dim=64, digits,dir:/a/b"));
    }

    @Test
    void variantSyntaxAndSetOverrides() {
        Result r = run("run", "--methods", "ncm,ncm[metric=cosine]", "--set", "knn.k=3", "--datasets", "digits",
                "--protocol", "fewshot");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no method variant 'knn'"), r.err());
    }
}
