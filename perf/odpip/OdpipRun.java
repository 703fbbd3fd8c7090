// Kollective's glue for measuring ODP-IP (Michalak, Rahwan et al., AIJ 2016; the Java release
// "release_March_2014" of github.com/trahwan/ODP-IP). This file is ours; ODP-IP's classes are not part
// of this repository: run.sh compiles this file against their sources (-sourcepath .../packages).
//
//   java -cp CLASSES:commons-math.jar OdpipRun VALUES.txt|VALUES.kcsg [--quiet]
//
// Reads a coalition value file in Rahwan's text format (2^n lines; line x holds v(mask x-1), bit i =
// agent i+1, the first line v(empty) = 0) or, for a name ending in .kcsg, Kollective's binary format
// (docs/configuration.md: "KLCSG\0v2", uint32 n, uint32 value bytes, uint64 c, the 2^n values in
// mask order, an FNV-1a checksum per c values; little-endian; version 1 files are read too), sets up
// ODP-IP's Input as their own experiment drivers do for
// an exact solve (acceptable ratio 100%, integer partitions ordered descendingly, no interim files, no
// value files), times one solve, and prints ONE line of JSON on stdout:
//
//   {"solver":"ODP-IP","n":..,"value":..,"structure":[[1,3],[2]],"seconds":..,"structure_value":..,
//    "partition_ok":true,"idp_max_size":..,"idp_stop_size":..,"ended_by":"ip"|"idp",...}
//
// "value" is ODP-IP's reported optimum (Result.get_ipValueOfBestCSFound), "structure" its structure
// (agents 1..n), "structure_value" the sum of v over that structure recomputed here from the file's
// values, "partition_ok" whether the structure covers every agent exactly once. "idp_max_size" is the
// largest coalition size whose splits ODP-IP's IDP thread had finished when the solve returned
// (Result.get_dpMaxSizeThatWasComputedSoFar; 1 = none); ODP-IP stops IP once IDP reaches
// floor(2n/3) ("idp_stop_size"), so ended_by = "idp" when idp_max_size >= idp_stop_size, else "ip"
// (IP closed the search itself: no enabled subspace left, or the bound met).
//
// Everything their solver prints (IDP's per-size progress lines) goes to stderr (or nowhere with
// --quiet), so that stdout holds only the JSON line.
//
// Why not mainSolver.MainSolver.solve(input): MainSolver imports cplexSolver.CplexSolver, which needs
// IBM ILOG CPLEX's jar to compile. For solverName ODPIP and numOfRunningTimes = 1, MainSolver.solve does
// exactly what solve() below does: new Result(input), new Output().initOutput(input),
// new IPSolver().solve(input, output, result), and returns that result.

import inputOutput.Input;
import inputOutput.Output;
import inputOutput.SolverNames;
import inputOutput.ValueDistribution;
import ipSolver.IPSolver;
import mainSolver.Result;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

public class OdpipRun {

  private static void fail(String message) {
    System.err.println("OdpipRun: " + message);
    System.exit(2);
  }

  /** The 2^n values of Rahwan's text format; n from the line count. */
  static double[] readValues(String path) throws Exception {
    double[] values = new double[1 << 10];
    int count = 0;
    try (BufferedReader reader = new BufferedReader(
             new InputStreamReader(new FileInputStream(path), StandardCharsets.US_ASCII), 1 << 20)) {
      String line;
      while ((line = reader.readLine()) != null) {
        final long lineNumber = count + 1L;
        final String text = line.trim();
        if (text.isEmpty()) fail(path + ":" + lineNumber + ": empty line");
        double value = 0;
        try {
          value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
          fail(path + ":" + lineNumber + ": not a number: '" + text + "'");
        }
        if (Double.isNaN(value) || Double.isInfinite(value)) {
          fail(path + ":" + lineNumber + ": not a finite number: '" + text + "'");
        }
        if (count == (1 << 30)) fail(path + ": more than 2^30 lines: ODP-IP's int coalition masks hold at most 30 agents");
        if (count == values.length) values = Arrays.copyOf(values, 2 * count);
        values[count++] = value;
      }
    }
    if (count < 2 || Integer.bitCount(count) != 1) {
      fail(path + ": " + count + " lines; a value file has 2^n lines (n >= 1)");
    }
    if (values[0] != 0.0) fail(path + ":1: v(empty) must be 0, got " + values[0]);
    return count == values.length ? values : Arrays.copyOf(values, count);
  }

  /**
   * The 2^n values of Kollective's binary format, its header, size and checksums checked: version 2
   * ("KLCSG\0v2", n, value bytes, c values per checksum, the values, an FNV-1a checksum per c values)
   * or version 1 ("KLCSG\0v1", n, value bytes, the values, one checksum of all their bytes).
   */
  static double[] readBinary(String path) throws Exception {
    try (FileChannel channel = FileChannel.open(Paths.get(path), StandardOpenOption.READ)) {
      final long size = channel.size();
      final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
      while (header.hasRemaining() && channel.read(header) >= 0) {}
      header.flip();
      final byte[] magic = new byte[8];
      if (header.remaining() < 16) fail(path + ": shorter than the 16-byte header");
      header.get(magic);
      final String version = new String(magic, StandardCharsets.ISO_8859_1);
      if (!version.equals("KLCSG\0v2") && !version.equals("KLCSG\0v1")) fail(path + ": not a Kollective binary coalition file");
      final boolean grouped = version.endsWith("2");
      final int n = header.getInt(), width = header.getInt();
      if (n < 1 || n > 30) fail(path + ": " + n + " agents; ODP-IP's int coalition masks hold 1..30");
      if (width != 4 && width != 8) fail(path + ": " + width + "-byte values; 4 or 8 are supported");
      final int count = 1 << n;
      if (grouped && header.remaining() < 8) fail(path + ": shorter than the 24-byte header");
      final long group = grouped ? header.getLong() : count;
      if (group < 1 || group > (1L << 26)) fail(path + ": " + group + " values per checksum; 1..2^26 are supported");
      final long groups = (count + group - 1) / group, headerBytes = grouped ? 24 : 16;
      if (size != headerBytes + (long) count * width + groups * 8) fail(path + ": " + size + " bytes do not match the header");
      final ByteBuffer sums = ByteBuffer.allocate((int) (groups * 8)).order(ByteOrder.LITTLE_ENDIAN);
      channel.position(headerBytes + (long) count * width);
      while (sums.hasRemaining()) if (channel.read(sums) < 0) fail(path + ": read error");
      sums.flip();
      channel.position(headerBytes);
      final double[] values = new double[count];
      final ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      long hash = 0xcbf29ce484222325L;
      int done = 0;
      while (done < count) {  // a chunk never crosses a group's end, so each group's sum is checked where it ends
        chunk.clear();
        final long groupLeft = group - done % group;
        chunk.limit((int) Math.min(chunk.capacity() / width, Math.min(count - done, groupLeft)) * width);
        while (chunk.hasRemaining()) if (channel.read(chunk) < 0) fail(path + ": read error");
        chunk.flip();
        for (int k = 0; k < chunk.limit(); ++k) hash = (hash ^ (chunk.get(k) & 0xff)) * 0x100000001b3L;
        while (chunk.hasRemaining()) values[done++] = width == 8 ? chunk.getDouble() : chunk.getFloat();
        if (done % group == 0 || done == count) {
          if (sums.getLong() != hash) fail(path + ": checksum mismatch in values " + (done - 1) / group * group + " to " + (done - 1));
          hash = 0xcbf29ce484222325L;
        }
      }
      for (int mask = 0; mask < count; ++mask) {
        if (Double.isNaN(values[mask]) || Double.isInfinite(values[mask])) fail(path + ": value " + mask + " is not finite");
      }
      if (values[0] != 0.0) fail(path + ": v(empty) must be 0, got " + values[0]);
      return values;
    }
  }

  /** The Input ODP-IP's own experiment classes (predefinedExperiments.RunIPorODPIP) build for an exact solve. */
  static Input makeInput(double[] values, int n) {
    Input input = new Input();
    input.initInput();  // feasibleCoalitions = null, numOfRunningTimes = 1, no value files, UNKNOWN distribution
    input.solverName = SolverNames.ODPIP;
    input.numOfAgents = n;
    input.coalitionValues = values;
    input.readCoalitionValuesFromFile = true;  // informational only: the values are already in place
    input.storeCoalitionValuesInFile = false;
    input.valueDistribution = ValueDistribution.UNKNOWN;
    input.acceptableRatio = 100;  // stop only at the optimum
    input.orderIntegerPartitionsAscendingly = false;  // their default (GUI box unchecked, RunIPorODPIP)
    input.printDetailsOfSubspaces = false;
    input.printNumOfIntegerPartitionsWithRepeatedParts = false;
    input.printInterimResultsOfIPToFiles = false;  // no output folder, no files
    input.printTimeTakenByIPForEachSubspace = false;
    input.outputFolder = null;
    input.problemID = "1";
    return input;
  }

  static String jsonNumber(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) return "null";
    return Double.toString(x);  // shortest text that reads back as the same double
  }

  public static void main(String[] args) throws Exception {
    String path = null;
    boolean quiet = false;
    for (String arg : args) {
      if (arg.equals("--quiet")) {
        quiet = true;
      } else if (arg.startsWith("-")) {
        fail("unknown option " + arg + " (usage: OdpipRun VALUES.txt|VALUES.kcsg [--quiet])");
      } else if (path == null) {
        path = arg;
      } else {
        fail("one value file only (usage: OdpipRun VALUES.txt|VALUES.kcsg [--quiet])");
      }
    }
    if (path == null) fail("usage: OdpipRun VALUES.txt|VALUES.kcsg [--quiet]");

    final double[] values = path.endsWith(".kcsg") ? readBinary(path) : readValues(path);
    final int n = Integer.numberOfTrailingZeros(values.length);

    // stdout is ours; everything else (their progress lines) goes to stderr or nowhere.
    final PrintStream json = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "US-ASCII");
    if (quiet) {
      System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    } else {
      System.setOut(System.err);
    }

    final Input input = makeInput(values, n);

    // The timed solve: what MainSolver.solve does for ODP-IP and one instance.
    final long start = System.nanoTime();
    final Result result = new Result(input);
    final Output output = new Output();
    output.initOutput(input);
    new IPSolver().solve(input, output, result);
    final long end = System.nanoTime();
    final int idpMaxSize = result.get_dpMaxSizeThatWasComputedSoFar();  // read before anything else runs
    final boolean idpStarted = result.idpSolver_whenRunning_ODPIP != null;

    final double seconds = (end - start) * 1e-9;
    final double value = result.get_ipValueOfBestCSFound();
    final int[][] found = result.get_ipBestCSFound();

    // Recompute the structure's value from the file's values; check that it partitions 1..n.
    boolean partitionOk = found != null;
    double structureValue = 0;
    List<int[]> coalitions = new ArrayList<>();
    if (found != null) {
      int covered = 0;
      for (int[] coalition : found) {
        int[] members = coalition.clone();
        Arrays.sort(members);
        int mask = 0;
        for (int agent : members) {
          if (agent < 1 || agent > n || (mask >> (agent - 1) & 1) != 0 || (covered >> (agent - 1) & 1) != 0) {
            partitionOk = false;
          } else {
            mask |= 1 << (agent - 1);
          }
        }
        if (members.length == 0) partitionOk = false;
        covered |= mask;
        structureValue += values[mask];
        coalitions.add(members);
      }
      if (covered != (int) ((1L << n) - 1)) partitionOk = false;
    }
    coalitions.sort(Comparator.comparingInt((int[] c) -> c.length == 0 ? Integer.MAX_VALUE : c[0]));

    final int idpStopSize = (int) Math.floor(2 * n / (double) 3);
    StringBuilder out = new StringBuilder(256);
    out.append("{\"solver\":\"ODP-IP\",\"n\":").append(n);
    out.append(",\"value\":").append(jsonNumber(value));
    out.append(",\"structure\":[");
    for (int c = 0; c < coalitions.size(); ++c) {
      if (c > 0) out.append(',');
      out.append('[');
      int[] members = coalitions.get(c);
      for (int m = 0; m < members.length; ++m) {
        if (m > 0) out.append(',');
        out.append(members[m]);
      }
      out.append(']');
    }
    out.append("],\"seconds\":").append(jsonNumber(seconds));
    out.append(",\"structure_value\":").append(jsonNumber(structureValue));
    out.append(",\"partition_ok\":").append(partitionOk);
    out.append(",\"idp_max_size\":").append(idpMaxSize);
    out.append(",\"idp_stop_size\":").append(idpStopSize);
    out.append(",\"idp_started\":").append(idpStarted);
    out.append(",\"ended_by\":\"").append(idpMaxSize >= idpStopSize ? "idp" : "ip").append('"');
    out.append(",\"their_ip_ms\":").append(result.ipTime);
    out.append(",\"their_scan_ms\":").append(result.ipTimeForScanningTheInput);
    out.append(",\"ip_upper_bound\":").append(jsonNumber(result.ipUpperBoundOnOptimalValue));
    out.append('}');
    json.println(out);
    json.flush();
    // IPSolver asked the IDP thread to stop; it is not a daemon and its stop flag is not volatile:
    // end the JVM rather than wait for it.
    System.exit(0);
  }
}
