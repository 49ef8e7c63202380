-- +goose Up
-- The open data's rating lists read the registered players strongest
-- first in keyset pages, nationally and per province.
CREATE INDEX rating_players_registered ON rating_players (mean DESC, id DESC) WHERE seen AND player_id IS NOT NULL;
CREATE INDEX rating_players_registered_province ON rating_players (province, mean DESC, id DESC) WHERE seen AND player_id IS NOT NULL;

-- +goose Down
DROP INDEX rating_players_registered_province;
DROP INDEX rating_players_registered;
