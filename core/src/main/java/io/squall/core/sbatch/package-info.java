/**
 * Reading Slurm batch scripts: {@code #SBATCH} directives plus explicit options become a
 * validated {@link io.squall.core.sbatch.JobRequest}.
 *
 * <p>Contract, following sbatch(1): directives are read from lines that start with
 * {@code #SBATCH} until the first line that is neither blank nor a comment; the input
 * environment variables ({@code SBATCH_PARTITION}, ...) override directives, and options given
 * explicitly (command line, API) override both; an unknown or ambiguous option is an error; every
 * error names the line (or "option" for explicit ones, or the variable), the directive as
 * written and what is wrong, and no partial request is ever returned.
 */
package io.squall.core.sbatch;
