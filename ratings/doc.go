// Package ratings will hold the rating system, rating history and rank
// estimates derived from reported results. Not built yet.
package ratings
