"""Running games: jobs, simulate, frames and Parquet files, datasets, runners, matches, replays."""
