-- OpenStreetMap roads and traffic lights as Mapbox Streets v8 spells its `road` layer: lines
-- with `class` (motorway, motorway_link, trunk, trunk_link, primary, primary_link,
-- secondary, secondary_link, tertiary, tertiary_link, street, service) and `oneway`
-- ("true"/"false"), and points of class `traffic_signals`. Only what tripshare's estimator
-- reads (BasemapRoads); nothing to draw a map with.

node_keys = { "highway" }

function node_function(node)
	if node:Find("highway") == "traffic_signals" then
		node:Layer("road", false)
		node:Attribute("class", "traffic_signals")
	end
end

local classes = {
	motorway = "motorway", motorway_link = "motorway_link", trunk = "trunk", trunk_link = "trunk_link",
	primary = "primary", primary_link = "primary_link", secondary = "secondary", secondary_link = "secondary_link",
	tertiary = "tertiary", tertiary_link = "tertiary_link", residential = "street", unclassified = "street",
	living_street = "street", service = "service"
}

function way_function(way)
	local class = classes[way:Find("highway")]
	if class == nil then return end
	way:Layer("road", false)
	way:Attribute("class", class)
	local oneway = way:Find("oneway")
	if oneway == "yes" or oneway == "1" or oneway == "true" or way:Find("junction") == "roundabout"
		or class == "motorway" then
		way:Attribute("oneway", "true")
	else
		way:Attribute("oneway", "false")
	end
end
